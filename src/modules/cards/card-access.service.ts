import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { grantNames, isShared, type Reader, type SharedGrant } from '../../common/auth/shared-grant';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';

const NO_DATABASE = 'value must be a query on an existing database.';
import { CollectionAccessService, type CollectionPlace } from '../collections';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { DatabaseAccessService } from '../warehouse';
import { CardsRepository } from './cards.repository';
import { type CardRow } from '../../schema/card.rows';
import type { DerivedQuery } from './card-query';

/** Where a card lives, for the collection access check (null: the Root collection). */
export function placeOf(row: Pick<CardRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>): CollectionPlace | null {
  if (row.collection_id === null || row.collection_id === undefined) return null;
  return {
    id: row.collection_id,
    location: row.coll_location ?? '/',
    personal_owner_id: row.coll_personal_owner_id,
  };
}

/** A dashboard as a grant loaded it: its id and the cards on it (its dashcards' cards and their series). */
export interface DashboardCards {
  id: number;
  cardIds: ReadonlySet<number>;
}

/**
 * Loads a card and checks what the caller may do with it: for a user the card's collection decides
 * (CollectionAccessService); a shared object's grant reads the card it names, or a card on the dashboard it names.
 */
@Injectable()
export class CardAccessService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly collections: CollectionAccessService,
    private readonly databases: DatabaseAccessService,
  ) {}

  /**
   * The card (404 when missing) with the caller's permission on it (403 when none). `on`: the dashboard the card is
   * read on, which lets a dashboard's grant reach the cards on it (a user still needs their own access to the card).
   */
  async readable(caller: Reader, id: number, on?: DashboardCards): Promise<{ row: CardRow; perm: CollectionPerm }> {
    const row = await this.cards.row(id);
    if (!row) throw new NotFoundError();
    if (isShared(caller)) {
      if (!reaches(caller, id, on)) throw new ForbiddenError();
      return { row, perm: 'read' };
    }
    const perm = await this.collections.permission(caller, placeOf(row));
    if (!perm) throw new ForbiddenError();
    return { row, perm };
  }

  /**
   * The cards among `ids` that the caller may read, by id (missing and unreadable ones absent): what `readable`
   * answers for each, in one query for the cards and a few for their collections' permissions.
   */
  async readableMany(caller: Reader, ids: number[], on?: DashboardCards): Promise<Map<number, CardRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.cards.byIds(unique);
    if (isShared(caller)) return new Map(rows.filter((r) => reaches(caller, r.id, on)).map((r) => [r.id, r]));
    const places = new Map<number, CollectionPlace>();
    for (const r of rows) {
      const place = placeOf(r);
      if (place) places.set(place.id, place);
    }
    const [perms, root] = await Promise.all([
      places.size ? this.collections.forCollections(caller, [...places.values()]) : Promise.resolve(new Map<number, CollectionPerm>()),
      rows.some((r) => r.collection_id === null) ? this.collections.permission(caller, null) : Promise.resolve(null),
    ]);
    const perm = (r: CardRow) => (r.collection_id === null ? root : (perms.get(r.collection_id) ?? null));
    return new Map(rows.filter((r) => perm(r) !== null).map((r) => [r.id, r]));
  }

  async writable(caller: AuthUser, id: number): Promise<CardRow> {
    const { row, perm } = await this.readable(caller, id);
    if (perm !== 'write') throw new ForbiddenError();
    return row;
  }

  /** Write access to a collection (null: Root); 404 when it does not exist. */
  async assertWriteCollection(caller: AuthUser, collectionId: number | null): Promise<void> {
    if (collectionId === null) return this.collections.assertWrite(caller, null);
    const [c] = await this.cards.collections([collectionId]);
    if (!c) throw new NotFoundError();
    await this.collections.assertWrite(caller, { id: c.id, location: c.location, personal_owner_id: c.personal_owner_id });
  }

  /** What POST /api/dataset would check before running the query: data access to its database, native permission for SQL. */
  async assertMayQuery(caller: AuthUser, derived: DerivedQuery): Promise<void> {
    if (derived.database_id === null) return;
    if (!(await this.cards.databaseExists(derived.database_id)))
      throw ValidationError.of('dataset_query', NO_DATABASE, derived.database_id);
    await this.databases.assertCanRead(caller, derived.database_id);
    if (derived.query_type === 'native') await this.databases.assertCanRunNative(caller, derived.database_id);
  }
}

function reaches(grant: SharedGrant, cardId: number, on: DashboardCards | undefined): boolean {
  if (grantNames(grant, 'card', cardId)) return true;
  return on !== undefined && grantNames(grant, 'dashboard', on.id) && on.cardIds.has(cardId);
}
