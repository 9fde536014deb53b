import { Global, Module } from '@nestjs/common';
import { CollectionsModule } from '../collections/collections.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { DbCardStore } from '../cards/card-store';
import { CardsRepository } from '../cards/cards.repository';
import { DbMacroStore } from '../legacy-metrics/db-macro-store';
import { LegacyMetricsRepository } from '../legacy-metrics/legacy-metrics.repository';
import { MacroHydrator } from '../legacy-metrics/macro-hydrator';
import { CARD_STORE } from './card-store';
import { MACRO_STORE } from './macro-store';

/**
 * Saved content other modules read without depending on the modules that store it (see CARD_STORE): the cards
 * module's store, which needs only the app database and the collection access check, so that the modules running
 * queries (which the cards module itself uses) never import the cards module. Likewise the legacy segments and metrics
 * of tables (MACRO_STORE), which need only the app database, for the table, field, card and dataset answers.
 */
@Global()
@Module({
  imports: [CollectionsModule, WarehouseModule],
  providers: [CardsRepository, { provide: CARD_STORE, useClass: DbCardStore }, LegacyMetricsRepository, MacroHydrator, { provide: MACRO_STORE, useClass: DbMacroStore }],
  exports: [CARD_STORE, MACRO_STORE],
})
export class ContentModule {}
