import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { NativeFormDto } from './dataset.dto';
import { DatasetService } from './dataset.service';

@Controller('api/dataset')
export class DatasetController {
  constructor(private readonly dataset: DatasetService) {}

  /** Runs a query: 202 with the results, also when the query failed (COMPAT.md "Query results"). */
  @Post()
  @Access('user')
  @HttpCode(202)
  run(@Body() body: unknown, @CurrentUser() caller: AuthUser, @Res({ passthrough: true }) res: Response) {
    return this.dataset.run(body, caller, abortOnDisconnect(res));
  }

  @Post('native')
  @Access('user')
  @HttpCode(200)
  native(@Body() body: NativeFormDto, @CurrentUser() caller: AuthUser) {
    return this.dataset.native(body, caller);
  }
}

/** Aborts when the client goes away before the answer is written: the query is then cancelled on the database. */
export function abortOnDisconnect(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
