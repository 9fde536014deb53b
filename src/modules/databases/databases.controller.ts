import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { SyncService } from '../sync';
import { DatabaseChecksService } from './database-checks.service';
import {
  CreateDatabaseDto,
  GetDatabaseQuery,
  ListDatabasesQuery,
  MetadataQuery,
  UpdateDatabaseDto,
  ValidateDatabaseDto,
} from './databases.dto';
import { DatabasesService } from './databases.service';

@Controller('api/database')
export class DatabasesController {
  constructor(
    private readonly databases: DatabasesService,
    private readonly sync: SyncService,
    private readonly checks: DatabaseChecksService,
  ) {}

  @Get()
  @Access('user')
  list(@Query() q: ListDatabasesQuery, @CurrentUser() caller: AuthUser) {
    return this.databases.list(caller, q.include === 'tables');
  }

  @Post()
  @Access('admin')
  @HttpCode(200)
  create(@Body() body: CreateDatabaseDto, @CurrentUser() caller: AuthUser) {
    return this.databases.create(caller, body);
  }

  /** Tries a connection before it is saved; the body nests it under `details` (Metabase's shape). */
  @Post('validate')
  @Access('admin')
  @HttpCode(200)
  validate(@Body() body: ValidateDatabaseDto) {
    return this.checks.validate(body.details.engine, body.details.details);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @Query() q: GetDatabaseQuery, @CurrentUser() caller: AuthUser) {
    return this.databases.getWith(caller, id, q.include);
  }

  /** Whether the database accepts a connection now (a fresh one, not the pool's). */
  @Get(':id/healthcheck')
  @Access('user')
  healthcheck(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.checks.healthcheck(caller, id);
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateDatabaseDto) {
    return this.databases.update(id, body);
  }

  @Delete(':id')
  @Access('admin')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number) {
    await this.databases.delete(id);
  }

  @Get(':id/metadata')
  @Access('user')
  metadata(@Param('id', IdParam()) id: number, @Query() q: MetadataQuery, @CurrentUser() caller: AuthUser) {
    return this.databases.metadata(caller, id, q.include_hidden ?? false);
  }

  @Get(':id/fields')
  @Access('user')
  fields(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.databases.fields(caller, id);
  }

  @Get(':id/schemas')
  @Access('user')
  schemas(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.databases.schemas(caller, id);
  }

  /** `/schema/` (empty name) lists the tables of engines without schemas. */
  @Get(':id/schema{/:schema}')
  @Access('user')
  schema(@Param('id', IdParam()) id: number, @Param('schema') schema: string | undefined, @CurrentUser() caller: AuthUser) {
    return this.databases.schemaTables(caller, id, schema ?? '');
  }

  @Post(':id/sync_schema')
  @Access('admin')
  @HttpCode(200)
  async syncSchema(@Param('id', IdParam()) id: number) {
    await this.databases.requireExisting(id);
    this.sync.inBackground(id, 'metadata');
    return { status: 'ok' };
  }

  @Post(':id/rescan_values')
  @Access('admin')
  @HttpCode(200)
  async rescanValues(@Param('id', IdParam()) id: number) {
    await this.databases.requireExisting(id);
    this.sync.inBackground(id, 'field-values');
    return { status: 'ok' };
  }

  @Post(':id/discard_values')
  @Access('admin')
  @HttpCode(200)
  async discardValues(@Param('id', IdParam()) id: number) {
    await this.databases.discardValues(id);
    return { status: 'ok' };
  }

  /** The recent syncs of a database and how they ended (errors included). */
  @Get(':id/sync_log')
  @Access('admin')
  async syncLog(@Param('id', IdParam()) id: number) {
    await this.databases.requireExisting(id);
    return this.databases.syncLog(id);
  }
}
