import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { IdParam } from '../../common/validation/pipes';
import { remappingValue } from '../cards';
import { DashboardParamsService } from './dashboard-params.service';
import { ValidFilterFieldsQuery } from './dashboard-queries.dto';

const nonBlank = (name: string, v: string): string => {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
};

/** The values of a dashboard's parameters (chain filters included), searched and remapped, and the fields that can filter others. */
@Controller('api/dashboard')
export class DashboardParamsController {
  constructor(private readonly params: DashboardParamsService) {}

  @Get('params/valid-filter-fields')
  @Access('user')
  validFilterFields(@Query() q: ValidFilterFieldsQuery, @CurrentUser() caller: AuthUser) {
    return this.params.validFilterFields(caller, q.filtered, q.filtering ?? []);
  }

  @Get(':id/params/:paramKey/values')
  @Access('user')
  values(
    @Param('id', IdParam()) id: number,
    @Param('paramKey') key: string,
    @Query() others: Record<string, unknown>,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key), others);
  }

  @Get(':id/params/:paramKey/remapping')
  @Access('user')
  remapping(
    @Param('id', IdParam()) id: number,
    @Param('paramKey') key: string,
    @Query('value') value: unknown,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.params.remappedValue(caller, id, nonBlank('param-key', key), remappingValue(value));
  }

  @Get(':id/params/:paramKey/search/:query')
  @Access('user')
  search(
    @Param('id', IdParam()) id: number,
    @Param('paramKey') key: string,
    @Param('query') query: string,
    @Query() others: Record<string, unknown>,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key), others, nonBlank('query', query));
  }
}
