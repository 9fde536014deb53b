import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import type { CardColumn, CardForMetadata } from '../content';
import { CollectionAccessService } from '../collections';
import { DatabaseAccessService } from '../warehouse';
import type { CardSource } from '../../query-engine/metadata';
import type { DatasetQuery } from '../../query-engine/mbql/types';
import { CardsRepository } from './cards.repository';
import { type CardRow } from '../../schema/card.rows';
import { legacyQuery } from './card-query';
import { placeOf } from './card-access.service';
import { parseJson } from '../../common/database/stored-json';

/**
 * The saved questions, models and metrics as the modules below this one ask for them (the content module's
 * CardSourceQuery and CardMetadataQuery, which CardsModule answers with this store): `card__<id>` sources
 * and MBQL 5 `source-card` (in the legacy form the engine runs, whichever form the card was saved in), `{{#id}}`
 * tags, and the virtual tables of saved questions. Reading one needs read access to its collection. As a source its
 * database is the query's own (the engine refuses a card of another database), so the run's data check covers it;
 * its virtual table needs data access to its database too.
 */
@Injectable()
export class CardStore {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CollectionAccessService,
    private readonly databases: DatabaseAccessService,
  ) {}

  async source(id: number, caller: AuthUser | null): Promise<CardSource | null> {
    const row = await this.readable(id, caller);
    if (!row || row.database_id === null) return null;
    const sent = parseJson<unknown>(row.dataset_query, null);
    const query = (legacyQuery(sent) ?? sent) as DatasetQuery;
    const columns = parseJson<CardColumn[] | null>(row.result_metadata, null);
    return {
      id: row.id,
      databaseId: row.database_id,
      query,
      ...(Array.isArray(columns)
        ? { resultMetadata: columns.map((c) => ({ name: c.name, base_type: c.base_type ?? 'type/*', display_name: c.display_name })) }
        : {}),
    };
  }

  async resultMetadata(id: number, caller: AuthUser): Promise<CardForMetadata | null> {
    const row = await this.readable(id, caller);
    if (!row || row.database_id === null || row.archived) return null;
    // Its columns describe the database's data: only for those who may query it.
    await this.databases.assertCanRead(caller, row.database_id);
    const columns = parseJson<CardColumn[] | null>(row.result_metadata, null);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      database_id: row.database_id,
      type: row.type as CardForMetadata['type'],
      collection_name: row.coll_name ?? null,
      entity_id: row.entity_id,
      moderated_status: null,
      is_native: row.query_type === 'native',
      result_metadata: Array.isArray(columns) ? columns : [],
    };
  }

  /** The card's row after the read check (ForbiddenError), null when there is no such card. */
  private async readable(id: number, caller: AuthUser | null): Promise<CardRow | null> {
    const row = await this.cards.row(id);
    if (!row) return null;
    if (caller) {
      await this.access.assertRead(caller, placeOf(row));
    }
    return row;
  }
}
