import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventBus } from '../../common/events/event-bus';
import { AppLogger } from '../../common/logging/app-logger';
import { CardDeleting, CardQueryChanged, CardsModule } from '../cards';
import { PersistedTableQuery } from '../content';
import { DatabaseDeleting } from '../databases';
import { DatasetModule } from '../dataset';
import { WarehouseModule } from '../warehouse';
import { PersistedBuilder } from './persisted-builder';
import { PersistedInfo } from '../../schema/persisted-info.entity';
import { CardPersistController } from './card-persist.controller';
import { DatabasePersistController } from './database-persist.controller';
import { PersistController } from './persist.controller';
import { PersistenceAdminService } from './persistence-admin.service';
import { PersistenceRepository } from './persistence.repository';
import { PersistenceScheduler } from './persistence.scheduler';
import { PersistenceService } from './persistence.service';

/**
 * Persisted models: a model's result stored as a table in its warehouse, read by queries that use the model (the
 * query engine asks the event bus, PersistedTableQuery, and this module answers).
 */
@Module({
  imports: [TypeOrmModule.forFeature([PersistedInfo]), CardsModule, DatasetModule, WarehouseModule],
  controllers: [CardPersistController, DatabasePersistController, PersistController],
  providers: [PersistenceRepository, PersistenceService, PersistenceAdminService, PersistedBuilder, PersistenceScheduler],
})
export class PersistenceModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly persistence: PersistenceService,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  onModuleInit(): void {
    this.bus.answer(PersistedTableQuery, (q) => this.persistence.source(q.cardId));
    this.bus.on(CardQueryChanged, (e) => this.persistence.queryChanged(e.cardId));
    // A deleted model's table, and every table of a deleted database, go from the warehouse first.
    this.bus.on(CardDeleting, (e) => this.cleanUp('card', e.cardId, () => this.persistence.cardDeleting(e.cardId)));
    this.bus.on(DatabaseDeleting, (e) => this.cleanUp('database', e.databaseId, () => this.persistence.databaseDeleting(e.databaseId)));
  }

  /** A clean-up that fails is logged and does not stop the deletion: an unreachable warehouse must not keep the row. */
  private async cleanUp(kind: 'card' | 'database', id: number, run: () => Promise<void>): Promise<void> {
    await run().catch((e: unknown) =>
      this.logger.warning(`Clean-up before deleting a ${kind} failed`, {
        [`${kind}_id`]: id,
        error: e instanceof Error ? e.message : String(e),
      }),
    );
  }
}
