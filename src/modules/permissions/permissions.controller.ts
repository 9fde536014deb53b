import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { GroupsService } from './groups.service';
import { MembershipsService } from './memberships.service';
import { AddMembershipDto, GroupDto } from './permissions.dto';

@Controller('api/permissions')
export class PermissionsController {
  constructor(
    private readonly groups: GroupsService,
    private readonly memberships: MembershipsService,
  ) {}

  /** `user`, not `admin`: group managers may list the groups they manage (the service refuses everyone else). */
  @Get('group')
  @Access('user')
  listGroups(@CurrentUser() caller: AuthUser) {
    return this.groups.list(caller);
  }

  @Post('group')
  @Access('admin')
  @HttpCode(200)
  createGroup(@Body() body: GroupDto) {
    return this.groups.create(body.name);
  }

  @Get('group/:id')
  @Access('admin')
  getGroup(@Param('id', IdParam()) id: number) {
    return this.groups.get(id);
  }

  @Put('group/:id')
  @Access('admin')
  renameGroup(@Param('id', IdParam()) id: number, @Body() body: GroupDto) {
    return this.groups.rename(id, body.name);
  }

  @Delete('group/:id')
  @Access('admin')
  @HttpCode(204)
  async deleteGroup(@Param('id', IdParam()) id: number) {
    await this.groups.delete(id);
  }

  @Get('membership')
  @Access('admin')
  listMemberships() {
    return this.memberships.byUser();
  }

  @Post('membership')
  @Access('admin')
  @HttpCode(200)
  addMembership(@Body() body: AddMembershipDto) {
    return this.memberships.add(body);
  }

  @Delete('membership/:id')
  @Access('admin')
  @HttpCode(204)
  async removeMembership(@Param('id', IdParam()) id: number) {
    await this.memberships.remove(id);
  }
}
