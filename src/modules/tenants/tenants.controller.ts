import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CreateTenantDto, ListTenantsQuery, UpdateTenantDto } from './tenants.dto';
import { TenantsService } from './tenants.service';

/** `/api/ee/tenant`: admins manage tenants (tenant users are never admins, so they are refused with everyone else). */
@Controller('api/ee/tenant')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @Access('admin')
  @HttpCode(200)
  create(@Body() body: CreateTenantDto) {
    return this.tenants.create(body);
  }

  @Get()
  @Access('admin')
  list(@Query() query: ListTenantsQuery) {
    return this.tenants.list(query);
  }

  @Get(':id')
  @Access('admin')
  get(@Param('id', IdParam()) id: number) {
    return this.tenants.get(id);
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateTenantDto, @CurrentUser() admin: AuthUser) {
    return this.tenants.update(admin, id, body);
  }
}
