import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SessionsService } from '../sessions';
import { SetupDto } from './setup.dto';
import { SetupService } from './setup.service';

/** First-run setup: the first admin, signed in at once. */
@Controller('api/setup')
export class SetupController {
  constructor(
    private readonly setupService: SetupService,
    private readonly sessions: SessionsService,
  ) {}

  @Post()
  @Access('public')
  @HttpCode(200)
  async setup(@Body() body: SetupDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const key = await this.setupService.setup(body);
    await this.sessions.setCookie(req, res, key);
    return { id: key };
  }
}
