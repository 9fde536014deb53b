import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { shutdownState } from '../../common/http/shutdown-state';
import { HealthService } from './health.service';

@Controller('api/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Metabase's answers, which load balancers and orchestrators already match on. */
  @Get()
  @Access('public')
  async check(@Res({ passthrough: true }) res: Response) {
    if (shutdownState.draining) {
      res.status(503);
      return { status: 'Shutting down' };
    }
    if (await this.health.appDbReachable()) return { status: 'ok' };
    res.status(503);
    return { status: 'Unable to get app-db connection' };
  }
}
