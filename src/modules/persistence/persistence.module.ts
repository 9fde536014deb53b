import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CardsModule } from '../cards/cards.module';
import { ContentRegistry } from '../dataset/content.registry';
import { DatasetModule } from '../dataset/dataset.module';
import { DeletionHooks } from '../warehouse/deletion-hooks';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { PersistedBuilder } from './persisted-builder';
import { PersistedInfo } from './persisted-info.entity';
import { CardPersistenceController, DatabasePersistenceController, PersistController } from './persistence.controller';
import { PersistenceAdminService } from './persistence-admin.service';
import { PersistenceRepository } from './persistence.repository';
import { PersistenceScheduler } from './persistence.scheduler';
import { PersistenceService } from './persistence.service';

/**
 * Persisted models: a model's result stored as a table in its warehouse, read by queries that use the model
 * (the query engine asks through ContentRegistry's `persisted` store, plugged in here).
 */
@Module({
  imports: [TypeOrmModule.forFeature([PersistedInfo]), CardsModule, DatasetModule, WarehouseModule],
  controllers: [CardPersistenceController, DatabasePersistenceController, PersistController],
  providers: [PersistenceRepository, PersistenceService, PersistenceAdminService, PersistedBuilder, PersistenceScheduler],
})
export class PersistenceModule implements OnModuleInit {
  constructor(
    private readonly registry: ContentRegistry,
    private readonly deletion: DeletionHooks,
    private readonly persistence: PersistenceService,
  ) {}

  onModuleInit(): void {
    this.registry.provide({ persisted: (id) => this.persistence.source(id), queryChanged: (id) => this.persistence.queryChanged(id) });
    // A deleted model's table, and every table of a deleted database, go from the warehouse first.
    this.deletion.onCard((id) => this.persistence.cardDeleting(id));
    this.deletion.onDatabase((id) => this.persistence.databaseDeleting(id));
  }
}
