import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { sendWebFile } from './send-web-file';
import { WebPagesService } from './web-pages.service';

/**
 * Metabase's application URLs (the paths of its own pages), so the links clients build (SSO `return_to`, oEmbed,
 * the SDK's "open in app") land on the right page. `/` is answered by the landing controller (JSON to scripts).
 * `/auth/sso` stays the SSO controller's: only `/auth/login` is the app's.
 */
export const APP_PATHS = [
  'auth/login',
  'setup',
  'search',
  'trash',
  'admin{/*rest}',
  'account{/*rest}',
  'collection{/*rest}',
  'question{/*rest}',
  'dashboard{/*rest}',
  'browse{/*rest}',
  'model{/*rest}',
  'metric{/*rest}',
  'auto{/*rest}',
];

/**
 * The single-page application's HTML for each of its paths; it routes on the client and reads only the API. The page
 * itself holds no data, so the routes are open (the API checks the session).
 */
@Controller()
export class AppPagesController {
  constructor(private readonly pages: WebPagesService) {}

  @Get(APP_PATHS)
  @Access('public')
  app(@Res() res: Response) {
    sendWebFile(res, this.pages.page('app'));
  }
}
