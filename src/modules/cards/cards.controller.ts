import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { sendJsonArray } from '../../common/http/json-array-stream';
import { IdParam } from '../../common/validation/pipes';
import { CardListService } from './card-list.service';
import { CardSharingService } from './card-sharing.service';
import { CreateCardDto, GetCardQuery, ListCardsQuery, MoveCardsDto, UpdateCardDto } from './cards.dto';
import { CardsService } from './cards.service';

/** The saved questions, models and metrics themselves: listed (also those shared or embeddable), read, written, copied, moved. */
@Controller('api/card')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly list: CardListService,
    private readonly sharing: CardSharingService,
  ) {}

  /** Streamed: the app database builds each card's JSON (see card-list-sql.ts), written a batch at a time. */
  @Get()
  @Access('user')
  async index(@Query() q: ListCardsQuery, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    await sendJsonArray(res, await this.list.list(caller, q.f ?? 'all', q.model_id));
  }

  @Get('embeddable')
  @Access('admin')
  embeddable() {
    return this.sharing.embeddable();
  }

  @Get('public')
  @Access('admin')
  publicCards() {
    return this.sharing.publicCards();
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
}
