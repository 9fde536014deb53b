import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { ParameterSearchQuery, ParameterValuesDto } from './dataset.dto';
import { ParameterValuesService } from './parameter-values.service';

/** The values of a parameter not yet saved on a card or dashboard (the query builder's filter widgets). */
@Controller('api/dataset/parameter')
export class DatasetParameterController {
  constructor(private readonly parameterValues: ParameterValuesService) {}

  @Post('values')
  @Access('user')
  @HttpCode(200)
  parameterValuesOf(@Body() body: ParameterValuesDto, @CurrentUser() caller: AuthUser) {
    return this.parameterValues.values(caller, body.parameter, body.field_ids ?? undefined);
  }

  @Post('search/:query')
  @Access('user')
  @HttpCode(200)
  searchParameterValues(@Param('query') query: string, @Body() body: ParameterValuesDto, @CurrentUser() caller: AuthUser) {
    return this.parameterValues.values(caller, body.parameter, body.field_ids ?? undefined, nonBlank(query));
  }

  @Post('search')
  @Access('user')
  @HttpCode(200)
  searchParameterValuesByQuery(@Query() q: ParameterSearchQuery, @Body() body: ParameterValuesDto, @CurrentUser() caller: AuthUser) {
    return this.parameterValues.values(caller, body.parameter, body.field_ids ?? undefined, nonBlank(q.query));
  }
}

function nonBlank(query: string | undefined): string {
  if (typeof query !== 'string' || !/\S/.test(query)) throw ValidationError.of('query', MSG.nonBlank, query);
  return query;
}
