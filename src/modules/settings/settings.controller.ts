import { Body, Controller, Get, Header, HttpCode, Param, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { SettingsService } from './settings.service';

@Controller('api/setting')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @Access('admin')
  list() {
    return this.settings.list();
  }

  /** Several at once: `{key: value, ...}`; all are validated before any is written. */
  @Put()
  @Access('admin')
  @HttpCode(204)
  async setMany(@Body() body: unknown) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ValidationError.of('settings', MSG.map, body);
    await this.settings.setMany(body as Record<string, unknown>);
  }

  /** The value as JSON (a string setting comes back quoted), as Metabase answers. */
  @Get(':key')
  @Access('user')
  @Header('Content-Type', 'application/json; charset=utf-8')
  get(@Param('key') key: string, @CurrentUser() user: AuthUser) {
    return this.settings.readForApi(key, user).then((v) => JSON.stringify(v ?? null));
  }

  @Put(':key')
  @Access('admin')
  @HttpCode(204)
  async set(@Param('key') key: string, @Body() body: { value?: unknown } | undefined) {
    // No body (or `null`) resets the setting; a list is no `{value}` map, and must not reset it either.
    if (Array.isArray(body)) throw ValidationError.of('body', MSG.map, body);
    await this.settings.setMany({ [key]: body?.value ?? null });
  }
}
