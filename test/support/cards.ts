import type { INestApplication } from '@nestjs/common';
import type { AuthUser } from '../../src/common/auth/current-user';
import { ForbiddenError } from '../../src/common/errors/api-errors';
import { CARD_STORE, type CardStore } from '../../src/modules/content/card-store';
import type { CardSource } from '../../src/query-engine/metadata';

/**
 * Saved questions for tests, until the cards module stores them: the app's CARD_STORE answers these cards as query
 * sources, refusing those `forbidden` says the caller may not read (with the ForbiddenError a real store throws);
 * a shared object's run (no caller) reads them all.
 */
export function serveCards(app: INestApplication, cards: Record<number, CardSource>, forbidden: (id: number, caller: AuthUser) => boolean = () => false) {
  return jest.spyOn(app.get<CardStore>(CARD_STORE), 'source').mockImplementation(async (id, caller) => {
    if (caller !== null && forbidden(id, caller)) throw new ForbiddenError();
    return cards[id] ?? null;
  });
}
