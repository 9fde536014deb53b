import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CreateApiKeyDto, UpdateApiKeyDto } from './api-keys.dto';
import { ApiKeysService } from './api-keys.service';

@Controller('api/api-key')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @Access('admin')
  @HttpCode(200)
  create(@Body() body: CreateApiKeyDto, @CurrentUser() user: AuthUser) {
    return this.keys.create(body, user);
  }

  @Get()
  @Access('admin')
  list() {
    return this.keys.list();
  }

  /** A bare JSON number, as Metabase answers. */
  @Get('count')
  @Access('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  async count() {
    return JSON.stringify(await this.keys.count());
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateApiKeyDto, @CurrentUser() user: AuthUser) {
    return this.keys.update(id, body, user);
  }

  @Put(':id/regenerate')
  @Access('admin')
  regenerate(@Param('id', IdParam()) id: number, @CurrentUser() user: AuthUser) {
    return this.keys.regenerate(id, user);
  }

  @Delete(':id')
  @Access('admin')
  @HttpCode(204)
  async delete(@Param('id', IdParam()) id: number) {
    await this.keys.delete(id);
  }
}
