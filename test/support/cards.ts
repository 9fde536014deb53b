import type { INestApplication } from '@nestjs/common';
import type { AuthUser } from '../../src/common/auth/current-user';
import { ForbiddenError } from '../../src/common/errors/api-errors';
import { CardStore } from '../../src/modules/cards/card-store';
import type { CardSource } from '../../src/query-engine/metadata';

/**
 * Saved questions for tests without storing them: the app's CardStore (the cards module's store, which answers the
 * card queries of the event bus) answers these cards as query sources instead, refusing those `forbidden` says the
 * caller may not read (with the ForbiddenError the real store throws); a shared object's run (no caller) reads them
 * all. Tests of stored cards use card-factories.ts.
 */
export function serveCards(
  app: INestApplication,
  cards: Record<number, CardSource>,
  forbidden: (id: number, caller: AuthUser) => boolean = () => false,
) {
  return jest.spyOn(app.get(CardStore), 'source').mockImplementation(async (id, caller) => {
    if (caller !== null && forbidden(id, caller)) throw new ForbiddenError();
    return cards[id] ?? null;
  });
}
