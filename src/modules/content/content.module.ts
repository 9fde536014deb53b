import { Global, Module } from '@nestjs/common';
import { CARD_STORE, NoCards } from './card-store';

/** Saved content other modules read without depending on the modules that store it (see CARD_STORE). */
@Global()
@Module({
  providers: [{ provide: CARD_STORE, useClass: NoCards }],
  exports: [CARD_STORE],
})
export class ContentModule {}
