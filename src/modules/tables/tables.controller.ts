import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { TableMetadataService } from './table-metadata.service';
import { BulkUpdateTablesDto, GetTableQuery, parseFieldOrder, QueryMetadataQuery, UpdateTableDto } from './tables.dto';
import { TablesService } from './tables.service';

@Controller('api/table')
export class TablesController {
  constructor(
    private readonly tables: TablesService,
    private readonly metadata: TableMetadataService,
  ) {}

  @Get()
  @Access('user')
  list(@CurrentUser() caller: AuthUser) {
    return this.tables.list(caller);
  }

  @Put()
  @Access('admin')
  bulkUpdate(@Body() body: BulkUpdateTablesDto, @CurrentUser() caller: AuthUser) {
    const { ids, ...edits } = body;
    return this.tables.updateMany(caller, ids, edits);
  }

  // The virtual tables of saved questions: `card__:id` wins over `:id`, which would refuse `card__12` as an id.
  @Get('card__:id/fks')
  @Access('user')
  cardFks(@Param('id', IdParam()) _id: number) {
    return [];
  }

  @Get('card__:id/query_metadata')
  @Access('user')
  cardQueryMetadata(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.metadata.cardQueryMetadata(caller, id);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @Query() q: GetTableQuery, @CurrentUser() caller: AuthUser) {
    return this.tables.get(caller, id, q.include_editable_data_model === true);
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateTableDto, @CurrentUser() caller: AuthUser) {
    return this.tables.update(caller, id, body);
  }

  /** The body is a bare JSON array of field ids (or `{field_order: [...]}`), so it is parsed by hand. */
  @Put(':id/fields/order')
  @Access('admin')
  reorderFields(@Param('id', IdParam()) id: number, @Body() body: unknown, @CurrentUser() caller: AuthUser) {
    return this.tables.reorderFields(caller, id, parseFieldOrder(body));
  }

  @Get(':id/fks')
  @Access('user')
  fks(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.tables.fks(caller, id);
  }

  @Get(':id/query_metadata')
  @Access('user')
  queryMetadata(@Param('id', IdParam()) id: number, @Query() q: QueryMetadataQuery, @CurrentUser() caller: AuthUser) {
    return this.metadata.queryMetadata(caller, id, {
      includeSensitive: q.include_sensitive_fields === true,
      includeHidden: q.include_hidden_fields === true,
      editable: q.include_editable_data_model === true,
    });
  }

  @Get(':id/related')
  @Access('user')
  related(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.tables.related(caller, id);
  }

  @Post(':id/discard_values')
  @Access('admin')
  @HttpCode(200)
  discardValues(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.tables.discardValues(caller, id);
  }

  @Post(':id/sync_schema')
  @Access('admin')
  @HttpCode(200)
  syncSchema(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.tables.syncSchema(caller, id);
  }

  @Post(':id/rescan_values')
  @Access('admin')
  @HttpCode(200)
  rescanValues(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.tables.rescanValues(caller, id);
  }
}
