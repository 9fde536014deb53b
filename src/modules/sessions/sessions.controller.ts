import { Body, Controller, Delete, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { SignsIn } from '../../common/http/cross-site.guard';
import { LoginDto } from './session.dto';
import { SessionsService } from './sessions.service';

@Controller('api/session')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  /** Another site may not sign a browser in (as someone else): held to the cross-site rule without a cookie too. */
  @Post()
  @Access('public')
  @SignsIn()
  @HttpCode(200)
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const key = await this.sessions.login(body.username, body.password, req.ip ?? 'unknown');
    await this.sessions.setCookie(req, res, key);
    return { id: key };
  }

  /** Ends the caller's session. An API key has no session to end. */
  @Delete()
  @Access('user')
  @HttpCode(204)
  async logout(@CurrentUser() user: AuthUser, @Res({ passthrough: true }) res: Response) {
    if (user.sessionKeyHash) await this.sessions.logout(user.sessionKeyHash);
    this.sessions.clearCookie(res);
  }
}
