import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { PersistenceService } from './persistence.service';

/** A model's persisted table: built, rebuilt and dropped by whoever may change the model (write access to its collection). */
@Controller('api/card/:cardId')
export class CardPersistController {
  constructor(private readonly persistence: PersistenceService) {}

  @Post('persist')
  @Access('user')
  @HttpCode(204)
  async persist(@Param('cardId', IdParam('card-id')) cardId: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.persistence.persist(caller, cardId);
  }

  @Post('refresh')
  @Access('user')
  @HttpCode(204)
  async refresh(@Param('cardId', IdParam('card-id')) cardId: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.persistence.refresh(caller, cardId);
  }

  @Post('unpersist')
  @Access('user')
  @HttpCode(204)
  async unpersist(@Param('cardId', IdParam('card-id')) cardId: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.persistence.unpersist(caller, cardId);
  }
}
