import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { sendWebFile, WebPagesService } from '../web-pages';
import { LandingService } from './landing.service';

@Controller()
export class LandingController {
  constructor(
    private readonly landing: LandingService,
    private readonly pages: WebPagesService,
  ) {}

  /**
   * A browser gets the application (its home page, or setup while no user exists); a script that asks for JSON
   * gets what the server is, whether setup is done and where the API docs are.
   */
  @Get()
  @Access('public')
  async root(@Req() req: Request, @Res() res: Response) {
    res.vary('Accept');
    if (req.accepts(['html', 'json']) !== 'json') return sendWebFile(res, this.pages.page('app'));
    res.setHeader('Cache-Control', 'no-store');
    res.json(await this.landing.info());
  }
}
