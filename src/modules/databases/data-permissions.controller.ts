import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { GraphUpdateQuery } from './data-permissions.dto';
import { DataPermissionsService } from './data-permissions.service';

@Controller('api/permissions/graph')
export class DataPermissionsController {
  constructor(private readonly permissions: DataPermissionsService) {}

  @Get()
  @Access('admin')
  graph() {
    return this.permissions.graph();
  }

  @Get('db/:id')
  @Access('admin')
  databaseGraph(@Param('id', IdParam('db-id')) id: number) {
    return this.permissions.graph({ dbId: id });
  }

  @Get('group/:id')
  @Access('admin')
  groupGraph(@Param('id', IdParam('group-id')) id: number) {
    return this.permissions.graph({ groupId: id });
  }

  @Put()
  @Access('admin')
  update(@Body() body: unknown, @Query() q: GraphUpdateQuery) {
    return this.permissions.update(body, { force: q.force === true, skipGraph: q['skip-graph'] === true });
  }
}
