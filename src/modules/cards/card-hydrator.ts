import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ancestorIds, CollectionAccessService } from '../collections';
import { DatabaseAccessService } from '../warehouse';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { placeOf } from './card-access.service';
import { CardsRepository } from './cards.repository';
import { type CardListRow, type CardRow } from '../../schema/card.rows';
import { toCardView } from './card-view';

/**
 * Turns card rows into their wire shape. One card gets everything (ancestors, last edit, query statistics) in a
 * fixed number of queries; a listing gets `can_write` for all its cards in at most three, whatever their number.
 */
@Injectable()
export class CardHydrator {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CollectionAccessService,
    private readonly databases: DatabaseAccessService,
  ) {}

  async one(caller: AuthUser, row: CardRow, perm: CollectionPerm | null): Promise<Record<string, unknown>> {
    const place = placeOf(row);
    const ids = place ? ancestorIds(place.location) : [];
    const [ancestors, lastEdits, stats] = await Promise.all([
      this.cards.collections(ids),
      this.cards.lastEdits([row.id]),
      this.cards.queryStats(row.id),
    ]);
    const readable =
      caller.isSuperuser || ancestors.length === 0
        ? null
        : await this.access.forCollections(
            caller,
            ancestors.map((a) => ({ id: a.id, location: a.location, personal_owner_id: a.personal_owner_id })),
          );
    const shown = ids
      .map((id) => ancestors.find((a) => a.id === id))
      .filter((a): a is NonNullable<typeof a> => Boolean(a) && (readable === null || readable.has(a!.id)));
    return {
      ...toCardView(row, { can_write: perm === 'write', ancestors: shown, lastEdit: lastEdits.get(row.id) ?? null, stats }),
      ...(await this.details(caller, row, perm)),
    };
  }

  /**
   * What Metabase hydrates onto a single card only (GET, POST and PUT answers): whether the caller may query its
   * database ad hoc and manage it, may restore or delete it, the dashboard it was saved into, and for a model whether
   * it is persisted.
   */
  private async details(caller: AuthUser, row: CardRow, perm: CollectionPerm | null) {
    const canWrite = perm === 'write';
    const { archived, archived_directly: directly, database_id: dbId } = row;
    const dashboardId = row.dashboard_id ?? null;
    const [access, dashboard, persisted] = await Promise.all([
      dbId === null ? null : this.databases.accessTo(caller, dbId),
      dashboardId === null ? null : this.cards.dashboardName(dashboardId),
      row.type === 'model' ? this.cards.isPersisted(row.id) : Promise.resolve(undefined),
    ]);
    return {
      can_run_adhoc_query: access !== null && access.data === 'unrestricted' && (row.query_type !== 'native' || access.native === 'write'),
      can_manage_db: caller.isSuperuser,
      can_restore: archived && directly && canWrite && row.coll_archived !== true,
      can_delete: archived && canWrite,
      dashboard: dashboard === null || dashboardId === null ? null : { id: dashboardId, name: dashboard, moderation_status: null },
      ...(persisted === undefined ? {} : { persisted }),
    };
  }

  /** A few cards (a page of series), each with `can_write`; the rows are the ones the caller may read. */
  async many(caller: AuthUser, rows: CardRow[]) {
    const canWrite = await this.canWrite(caller, rows);
    return rows.map((row) => toCardView(row, { can_write: canWrite(row) }));
  }

  private async canWrite(
    caller: AuthUser,
    rows: Array<Pick<CardListRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>>,
  ): Promise<(row: Pick<CardListRow, 'collection_id'>) => boolean> {
    if (caller.isSuperuser) return () => true;
    const writable = await this.writableCollections(caller, rows);
    const rootWrite = rows.some((r) => r.collection_id === null) && (await this.access.canWrite(caller, null));
    return (row) => (row.collection_id === null ? rootWrite : writable(row.collection_id));
  }

  private async writableCollections(
    caller: AuthUser,
    rows: Array<Pick<CardListRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>>,
  ): Promise<(id: number) => boolean> {
    const places = new Map<number, { id: number; location: string; personal_owner_id: number | null }>();
    for (const r of rows) {
      const p = placeOf(r);
      if (p) places.set(p.id, p);
    }
    const perms = await this.access.forCollections(caller, [...places.values()]);
    return (id) => perms.get(id) === 'write';
  }
}
