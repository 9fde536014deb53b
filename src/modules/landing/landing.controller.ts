import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { landingPage } from './landing-page';
import { LandingService } from './landing.service';

@Controller()
export class LandingController {
  constructor(private readonly landing: LandingService) {}

  /** What the server is, whether setup is done and where the API docs are: HTML for a browser, JSON when asked for. */
  @Get()
  @Access('public')
  @Header('Cache-Control', 'no-store')
  async root(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const info = await this.landing.info();
    res.vary('Accept');
    if (req.accepts(['html', 'json']) === 'json') return info;
    res.type('text/html; charset=utf-8');
    return landingPage(info);
  }
}
