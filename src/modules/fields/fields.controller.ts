import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { IdParam } from '../../common/validation/pipes';
import { FieldDataService } from './field-data.service';
import { FieldValuesService } from './field-values.service';
import { DimensionDto, FieldValuesDto, GetFieldQuery, RemappingQuery, SearchQuery, UpdateFieldDto } from './fields.dto';
import { FieldsService } from './fields.service';

@Controller('api/field')
export class FieldsController {
  constructor(
    private readonly fields: FieldsService,
    private readonly values: FieldValuesService,
    private readonly data: FieldDataService,
  ) {}

  /**
   * Fields of saved questions are addressed by reference, `field,<name>,<options JSON>`, URL-encoded. Express matches
   * the raw path, so the commas are written encoded here. The literal `field` wins over `:id/values`, which would 400 on it.
   */
  @Get(['field%2C:ref/values', 'field,:ref/values'])
  @Access('user')
  savedQuestionFieldValues(@Param('ref') ref: string) {
    const comma = ref.indexOf(',');
    const name = comma < 0 ? ref : ref.slice(0, comma);
    if (!/\S/.test(name)) throw ValidationError.of('field-name', MSG.nonBlank, name);
    const raw = comma < 0 ? '' : ref.slice(comma + 1);
    let options: unknown;
    try {
      options = JSON.parse(raw);
    } catch {
      throw ValidationError.of('options', MSG.jsonString, raw);
    }
    return { values: [], field_id: ['field', name, options], has_more_values: false };
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @Query() q: GetFieldQuery, @CurrentUser() caller: AuthUser) {
    return this.fields.get(caller, id, q.include_editable_data_model === true);
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateFieldDto, @CurrentUser() caller: AuthUser) {
    return this.fields.update(caller, id, body);
  }

  @Get(':id/summary')
  @Access('user')
  summary(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.data.summary(caller, id);
  }

  @Get(':id/related')
  @Access('user')
  related(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.fields.related(caller, id);
  }

  @Get(':id/values')
  @Access('user')
  getValues(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.values.values(caller, id);
  }

  @Post(':id/values')
  @Access('admin')
  @HttpCode(200)
  setValues(@Param('id', IdParam()) id: number, @Body() body: FieldValuesDto, @CurrentUser() caller: AuthUser) {
    return this.values.setValues(caller, id, body);
  }

  @Post(':id/dimension')
  @Access('admin')
  @HttpCode(200)
  setDimension(@Param('id', IdParam()) id: number, @Body() body: DimensionDto, @CurrentUser() caller: AuthUser) {
    return this.fields.setDimension(caller, id, body);
  }

  @Delete(':id/dimension')
  @Access('admin')
  @HttpCode(204)
  async deleteDimension(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    await this.fields.deleteDimension(caller, id);
  }

  @Get(':id/remapping/:remappedId')
  @Access('user')
  remapping(
    @Param('id', IdParam()) id: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query() q: RemappingQuery,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.data.remapping(caller, id, remappedId, q.value);
  }

  @Get(':id/search/:searchId')
  @Access('user')
  search(
    @Param('id', IdParam()) id: number,
    @Param('searchId', IdParam('search-id')) searchId: number,
    @Query() q: SearchQuery,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.data.search(caller, id, searchId, q.value, q.limit ?? undefined);
  }

  @Post(':id/discard_values')
  @Access('admin')
  @HttpCode(200)
  discardValues(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.values.discard(caller, id);
  }

  @Post(':id/rescan_values')
  @Access('admin')
  @HttpCode(200)
  rescanValues(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.values.rescan(caller, id);
  }
}
