import { Controller, Get, NotFoundException, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { sendWebFile as send } from './send-web-file';
import { downloadLink, WebPagesService } from './web-pages.service';

/**
 * The pages a browser (usually an iframe) shows for public links and signed embeds. The page itself reveals nothing:
 * it reads the public and embed API, which check the link or token, so the routes are open. `frame-ancestors` is set
 * for /public and /embed by the embedding HTTP middleware (common/http/embedding-http.ts) before routing.
 */
@Controller()
export class WebPagesController {
  constructor(private readonly pages: WebPagesService) {}

  /** A question page, or `<uuid>.csv|json|xlsx`: its download, from the public export endpoint. */
  @Get('public/question/:uuid')
  @Access('public')
  publicQuestion(@Param('uuid') uuid: string, @Req() req: Request, @Res() res: Response) {
    const link = downloadLink(uuid);
    if (!link) return send(res, this.pages.page());
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    res.redirect(302, `/api/public/card/${encodeURIComponent(link.uuid)}/query/${link.format}${query}`);
  }

  @Get('public/dashboard/:uuid')
  @Access('public')
  publicDashboard(@Res() res: Response) {
    send(res, this.pages.page());
  }

  @Get('embed/question/:token')
  @Access('public')
  embedQuestion(@Res() res: Response) {
    send(res, this.pages.page());
  }

  @Get('embed/dashboard/:token')
  @Access('public')
  embedDashboard(@Res() res: Response) {
    send(res, this.pages.page());
  }

  @Get('app/assets/:name')
  @Access('public')
  asset(@Param('name') name: string, @Res() res: Response) {
    const file = this.pages.asset(name);
    if (!file) throw new NotFoundException();
    send(res, file);
  }
}
