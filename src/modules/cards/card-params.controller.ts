import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { IdParam } from '../../common/validation/pipes';
import { CardParamsService, remappingValue } from './card-params.service';

const nonBlank = (name: string, v: string): string => {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
};

/** The values a card's parameter (a template tag or a filter of its query) offers, searched and remapped. */
@Controller('api/card/:cardId/params/:paramKey')
export class CardParamsController {
  constructor(private readonly params: CardParamsService) {}

  @Get('values')
  @Access('user')
  paramValues(@Param('cardId', IdParam('card-id')) id: number, @Param('paramKey') key: string, @CurrentUser() caller: AuthUser) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key));
  }

  @Get('remapping')
  @Access('user')
  paramRemapping(
    @Param('cardId', IdParam('card-id')) id: number,
    @Param('paramKey') key: string,
    @Query('value') value: unknown,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.params.remappedValue(caller, id, nonBlank('param-key', key), remappingValue(value));
  }

  @Get('search/:query')
  @Access('user')
  paramSearch(
    @Param('cardId', IdParam('card-id')) id: number,
    @Param('paramKey') key: string,
    @Param('query') query: string,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key), nonBlank('query', query));
  }
}
