import { Global, Module } from '@nestjs/common';
import { CollectionsModule } from '../collections/collections.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { DbCardStore } from '../cards/card-store';
import { CardsRepository } from '../cards/cards.repository';
import { CARD_STORE } from './card-store';

/**
 * Saved content other modules read without depending on the modules that store it (see CARD_STORE): the cards
 * module's store, which needs only the app database and the collection access check, so that the modules running
 * queries (which the cards module itself uses) never import the cards module.
 */
@Global()
@Module({
  imports: [CollectionsModule, WarehouseModule],
  providers: [CardsRepository, { provide: CARD_STORE, useClass: DbCardStore }],
  exports: [CARD_STORE],
})
export class ContentModule {}
