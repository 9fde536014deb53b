import * as path from 'node:path';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { NotFoundError } from '../../common/errors/api-errors';
import { DOCS_ASSETS, DOCS_INIT_JS, DOCS_PAGE } from './api-docs-page';
import { ApiDocsService } from './api-docs.service';

/** swagger-ui-dist's files, found without loading its index (which reads the whole bundle: a tenth of start-up). */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The API's OpenAPI document and a page rendering it; public, as Metabase's /api/docs is. */
@Controller('api/docs')
export class ApiDocsController {
  constructor(private readonly docs: ApiDocsService) {}

  @Get()
  @Access('public')
  @Header('Content-Type', 'text/html; charset=utf-8')
  page() {
    return DOCS_PAGE;
  }

  @Get('openapi.json')
  @Access('public')
  openapi() {
    return this.docs.document();
  }

  @Get('assets/:file')
  @Access('public')
  asset(@Param('file') file: string, @Res() res: Response) {
    if (file === 'docs-init.js') {
      res.type('text/javascript; charset=utf-8').send(DOCS_INIT_JS);
      return;
    }
    const type = Object.hasOwn(DOCS_ASSETS, file) ? DOCS_ASSETS[file] : undefined;
    if (!type) throw new NotFoundError();
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type(type).sendFile(path.join(SWAGGER_UI_DIR, file));
  }
}
