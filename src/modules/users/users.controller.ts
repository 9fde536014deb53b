import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { IdParam } from '../../common/validation/pipes';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto';
import { UserViewRepository } from './user-view.repository';
import { UsersService } from './users.service';

@Controller('api/user')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly views: UserViewRepository,
  ) {}

  @Get('current')
  @Access('user')
  async current(@CurrentUser() caller: AuthUser) {
    const view = await this.views.current(caller.id);
    if (!view) throw new NotFoundError();
    return view;
  }

  @Get()
  @Access('admin')
  list(@Query() query: ListUsersQuery) {
    return this.users.list(query);
  }

  @Post()
  @Access('admin')
  @HttpCode(200)
  create(@Body() body: CreateUserDto) {
    return this.users.createByAdmin(body);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.users.viewFor(caller, id);
  }

  @Put(':id')
  @Access('user')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateUserDto, @CurrentUser() caller: AuthUser) {
    return this.users.update(caller, id, body);
  }

  /** Your own password: 200 with a new session key. Someone else's (admins only): 204. */
  @Put(':id/password')
  @Access('user')
  async password(
    @Param('id', IdParam()) id: number,
    @Body() body: ChangePasswordDto,
    @CurrentUser() caller: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    const sessionKey = await this.users.changePassword(caller, id, body);
    if (sessionKey === undefined) {
      res.status(204);
      return;
    }
    return { success: true, session_id: sessionKey };
  }

  @Delete(':id')
  @Access('admin')
  async deactivate(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    await this.users.deactivate(caller, id);
    return { success: true };
  }

  @Put(':id/reactivate')
  @Access('admin')
  reactivate(@Param('id', IdParam()) id: number) {
    return this.users.reactivate(id);
  }
}
