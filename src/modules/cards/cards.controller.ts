import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { writeResultJson } from '../../common/http/write-result-json';
import { IdParam } from '../../common/validation/pipes';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { CardListService } from './card-list.service';
import { CardQueriesService } from './card-queries.service';
import { CardQueryDto, CreateCardDto, GetCardQuery, ListCardsQuery, MoveCardsDto, UpdateCardDto } from './cards.dto';
import { CardsService } from './cards.service';

/** The saved questions, models and metrics themselves, and their queries. */
@Controller('api/card')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly list: CardListService,
    private readonly queries: CardQueriesService,
  ) {}

  /** Written as text: the listing builds its JSON itself (see card-list-sql.ts). */
  @Get()
  @Access('user')
  async index(@Query() q: ListCardsQuery, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    res.status(200).type('application/json').send(await this.list.list(caller, q.f ?? 'all', q.model_id));
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  create(@Body() body: CreateCardDto, @CurrentUser() caller: AuthUser) {
    return this.cards.create(caller, body);
  }

  @Post('collections')
  @Access('user')
  @HttpCode(200)
  move(@Body() body: MoveCardsDto, @CurrentUser() caller: AuthUser) {
    return this.cards.move(caller, body.card_ids, body.collection_id ?? null);
  }

  @Post('pivot/:cardId/query')
  @Access('user')
  @HttpCode(202)
  pivot(@Param('cardId', IdParam('card-id')) id: number, @Body() body: CardQueryDto, @CurrentUser() caller: AuthUser, @Res({ passthrough: true }) res: Response) {
    return this.queries.pivot(caller, id, { parameters: body.parameters, ignoreCache: body.ignore_cache === true }, abortOnDisconnect(res));
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @Query() q: GetCardQuery, @CurrentUser() caller: AuthUser) {
    return this.cards.get(caller, id, { ignoreView: q.ignore_view === true });
  }

  @Put(':id')
  @Access('user')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateCardDto, @CurrentUser() caller: AuthUser) {
    return this.cards.update(caller, id, body);
  }

  @Delete(':id')
  @Access('user')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.cards.remove(caller, id);
  }

  @Post(':id/copy')
  @Access('user')
  @HttpCode(200)
  copy(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.cards.copy(caller, id);
  }

  /** Runs the card's query: 202 with the results, also when the query failed (COMPAT.md "Query results"). */
  @Post(':cardId/query')
  @Access('user')
  async query(@Param('cardId', IdParam('card-id')) id: number, @Body() body: CardQueryDto, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    const opts = { parameters: body.parameters, ignoreCache: body.ignore_cache === true, dashboardId: body.dashboard_id ?? null };
    await writeResultJson(res, 202, await this.queries.run(caller, id, opts, abortOnDisconnect(res)));
  }
}
