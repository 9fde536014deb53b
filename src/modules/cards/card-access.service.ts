import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';

const NO_DATABASE = 'value must be a query on an existing database.';
import { CollectionAccessService, type CollectionPlace } from '../collections/collection-access.service';
import type { CollectionPerm } from '../collections/collection-permission.entity';
import { DatabaseAccessService } from '../warehouse/database-access.service';
import { CardsRepository, type CardRow } from './cards.repository';
import type { DerivedQuery } from './card-query';

/** Where a card lives, for the collection access check (null: the Root collection). */
export function placeOf(row: Pick<CardRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>): CollectionPlace | null {
  if (row.collection_id === null || row.collection_id === undefined) return null;
  return { id: Number(row.collection_id), location: row.coll_location ?? '/', personal_owner_id: row.coll_personal_owner_id === null ? null : Number(row.coll_personal_owner_id) };
}

/** Loads a card and checks what the caller may do with it: the card's collection decides (CollectionAccessService). */
@Injectable()
export class CardAccessService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly collections: CollectionAccessService,
    private readonly databases: DatabaseAccessService,
  ) {}

  /** The card (404 when missing) with the caller's permission on it (403 when none). */
  async readable(caller: AuthUser, id: number): Promise<{ row: CardRow; perm: CollectionPerm }> {
    const row = await this.cards.row(id);
    if (!row) throw new NotFoundError();
    const perm = await this.collections.permission(caller, placeOf(row));
    if (!perm) throw new ForbiddenError();
    return { row, perm };
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
    await this.collections.assertWrite(caller, { id: Number(c.id), location: c.location, personal_owner_id: c.personal_owner_id === null ? null : Number(c.personal_owner_id) });
  }

  /** What POST /api/dataset would check before running the query: data access to its database, native permission for SQL. */
  async assertMayQuery(caller: AuthUser, derived: DerivedQuery): Promise<void> {
    if (derived.database_id === null) return;
    if (!(await this.cards.databaseExists(derived.database_id))) throw ValidationError.of('dataset_query', NO_DATABASE, derived.database_id);
    await this.databases.assertCanRead(caller, derived.database_id);
    if (derived.query_type === 'native') await this.databases.assertCanRunNative(caller, derived.database_id);
  }
}
