import { Body, Controller, Get, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { DataPermissionsService } from './data-permissions.service';

@Controller('api/permissions/graph')
export class DataPermissionsController {
  constructor(private readonly permissions: DataPermissionsService) {}

  @Get()
  @Access('admin')
  graph() {
    return this.permissions.graph();
  }

  @Put()
  @Access('admin')
  update(@Body() body: unknown) {
    return this.permissions.update(body);
  }
}
