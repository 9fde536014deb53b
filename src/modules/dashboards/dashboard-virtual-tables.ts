import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { parseJson } from '../../common/database/stored-json';
import type { CardRow } from '../../schema/card.rows';
import type { CardColumn } from '../content';
import { FieldHydrator, FieldsRepository } from '../fields';
import { DIMENSION_OPTIONS, ROOT_COLLECTION_SCHEMA, virtualField } from '../tables';
import { accessIn, DatabaseAccessService } from '../warehouse';
import type { CollectionPerm } from '../../schema/collection-permission.entity';

/**
 * The virtual `card__<id>` tables of many models and saved questions at once, as GET /api/table/card__<id>/query_metadata
 * answers each: the dashboard's query_metadata needs one per model its dashcards use, and asking the tables module
 * card by card cost some seven app-DB queries per model. Here the whole set costs one data-permission lookup and one
 * field hydration, whatever its size. The same rules as the one-card answer: an archived card, a card without a
 * database, one whose collection the caller may not read or whose database they may not query are left out.
 */
@Injectable()
export class DashboardVirtualTables {
  constructor(
    private readonly fields: FieldsRepository,
    private readonly hydrator: FieldHydrator,
    private readonly databases: DatabaseAccessService,
  ) {}

  /** `perm` is the caller's permission on each card's collection, as DashboardHydrator.cardPerms gives it. */
  async of(caller: AuthUser, rows: CardRow[], perm: (r: CardRow) => CollectionPerm | null) {
    const shown = rows.filter((r): r is CardRow & { database_id: number } => perm(r) !== null && r.database_id !== null && !r.archived);
    if (shown.length === 0) return [];
    const access = await this.databases.accessMap(caller);
    const cards = shown
      .filter((r) => accessIn(access, r.database_id).data === 'unrestricted')
      .map((r) => ({ row: r, columns: parseJson<CardColumn[] | null>(r.result_metadata, null) ?? [] }));
    const fieldIds = [...new Set(cards.flatMap((c) => c.columns.map((col) => col.id)).filter((x): x is number => typeof x === 'number'))];
    const found = (await this.fields.fieldsByIds(fieldIds)).filter((f) => f.active);
    const underlying = new Map((await this.hydrator.detailed(found, { includeSensitive: caller.isSuperuser })).map((f) => [f.id, f]));
    return cards.map(({ row, columns }) => {
      const tableId = `card__${row.id}`;
      const keepKeys = row.type === 'model' && row.query_type === 'native';
      return {
        id: tableId,
        db_id: row.database_id,
        display_name: row.name,
        schema: row.coll_name ?? ROOT_COLLECTION_SCHEMA,
        moderated_status: null,
        description: row.description,
        entity_id: row.entity_id ?? null,
        type: row.type,
        fields: columns.map((col) => virtualField(col, tableId, typeof col.id === 'number' ? underlying.get(col.id) : undefined, keepKeys)),
        segments: [],
        metrics: [],
        dimension_options: DIMENSION_OPTIONS,
      };
    });
  }
}
