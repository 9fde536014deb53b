import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ancestorIds, CollectionAccessService } from '../collections';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { CardsRepository, placeOf, toCardView } from '../cards';
import { type CardRow } from '../../schema/card.rows';
import { FieldHydrator, FieldMetadataCache, FieldsRepository } from '../fields';
import { dashboardPlace } from './dashboard-access.service';
import { parseJson } from '../../common/database/stored-json';
import { dashboardBase, dashboardCollection, dashcardView, lastEditView, tabView } from './dashboard-view';
import { DashboardLayoutCache } from './dashboard-layout.cache';
import { DashboardsRepository } from './dashboards.repository';
import { type DashboardRow, type DashcardRow } from '../../schema/dashboard.rows';
import { EventBus } from '../../common/events/event-bus';
import { dashcardActions } from './dashcard-actions';

/** What the collection permission check needs of a card or dashboard row. */
type Placed = Pick<CardRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>;

/** Field ids a parameter mapping targets: `["dimension", ["field", id, ...]]`. */
export function mappedFieldIds(mappings: unknown[]): number[] {
  const out: number[] = [];
  for (const m of mappings) {
    const target = (m as { target?: unknown }).target;
    if (
      Array.isArray(target) &&
      target[0] === 'dimension' &&
      Array.isArray(target[1]) &&
      target[1][0] === 'field' &&
      typeof target[1][1] === 'number'
    )
      out.push(target[1][1]);
  }
  return out;
}

/**
 * Turns a dashboard into the answer of GET /api/dashboard/:id in a fixed number of queries whatever its number of
 * dashcards: dashcards, series and tabs in one query each, all their cards in one, their collections' permissions
 * in at most four, the mapped fields in a few.
 */
@Injectable()
export class DashboardHydrator {
  constructor(
    private readonly repo: DashboardsRepository,
    private readonly layouts: DashboardLayoutCache,
    private readonly cards: CardsRepository,
    private readonly collections: CollectionAccessService,
    private readonly fields: FieldsRepository,
    private readonly fieldHydrator: FieldHydrator,
    private readonly fieldCache: FieldMetadataCache,
    private readonly bus: EventBus,
  ) {}

  async one(caller: AuthUser, row: DashboardRow, perm: CollectionPerm | null) {
    const id = row.id;
    const place = dashboardPlace(row);
    const ids = place ? ancestorIds(place.location) : [];
    const [{ dashcards, series, tabs }, ancestors, lastEdit] = await Promise.all([
      this.layouts.of(id),
      this.cards.collections(ids),
      this.repo.lastEdit(id),
    ]);
    const cardIds = [...new Set([...dashcards.map((d) => d.card_id), ...series.map((s) => s.card_id)].filter((x) => x !== null))];
    const actionIds = [...new Set(dashcards.map((d) => d.action_id).filter((x) => x !== null))];
    const [cardViews, actionViews] = await Promise.all([this.cardViews(caller, cardIds), dashcardActions(this.bus, actionIds, 'user')]);
    const seriesOf = new Map<number, Record<string, unknown>[]>();
    for (const s of series) {
      const card = cardViews.get(s.card_id);
      if (!card) continue;
      const list = seriesOf.get(s.dashboardcard_id) ?? [];
      list.push(card);
      seriesOf.set(s.dashboardcard_id, list);
    }
    const readableAncestors =
      caller.isSuperuser || ancestors.length === 0
        ? null
        : await this.collections.forCollections(
            caller,
            ancestors.map((a) => ({
              id: a.id,
              location: a.location,
              personal_owner_id: a.personal_owner_id,
            })),
          );
    const shown = ids
      .map((aid) => ancestors.find((a) => a.id === aid))
      .filter((a): a is NonNullable<typeof a> => Boolean(a) && (readableAncestors === null || readableAncestors.has(a!.id)));
    return {
      ...dashboardBase(row),
      collection: dashboardCollection(row, shown),
      can_write: perm === 'write',
      can_restore: perm === 'write' && row.archived,
      can_delete: perm === 'write',
      dashcards: dashcards.map((dc) =>
        dashcardView(
          dc,
          dc.card_id === null ? null : (cardViews.get(dc.card_id) ?? null),
          seriesOf.get(dc.id) ?? [],
          dc.action_id === null ? null : (actionViews.get(dc.action_id) ?? null),
        ),
      ),
      tabs: tabs.map(tabView),
      param_fields: await this.paramFields(dashcards),
      param_values: null,
      'last-edit-info': lastEditView(lastEdit),
      moderation_reviews: [],
    };
  }

  /**
   * The cards by id, each as its view. A card the caller may not read is only its `{id}`, as a dashcard's card and as
   * a series (Metabase's hide-unreadable-cards): neither its name, collection, creator nor query shows.
   */
  async cardViews(caller: AuthUser, ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    if (ids.length === 0) return new Map();
    const rows = await this.cards.byIds(ids);
    const perms = await this.cardPerms(caller, rows);
    return new Map(
      rows.map((r): [number, Record<string, unknown>] => {
        const perm = perms(r);
        if (!perm) return [r.id, { id: r.id }];
        return [
          r.id,
          {
            ...toCardView(r, { can_write: perm === 'write' }),
            dashboard_id: r.dashboard_id ?? null,
          },
        ];
      }),
    );
  }

  /** The caller's permission on each card's (or dashboard's) collection: at most four queries for all of them. */
  async cardPerms<T extends Placed>(caller: AuthUser, rows: T[]): Promise<(r: T) => CollectionPerm | null> {
    if (caller.isSuperuser) return () => 'write';
    const places = new Map<number, { id: number; location: string; personal_owner_id: number | null }>();
    for (const r of rows) {
      const p = placeOf(r);
      if (p) places.set(p.id, p);
    }
    const [perms, root] = await Promise.all([
      places.size ? this.collections.forCollections(caller, [...places.values()]) : Promise.resolve(new Map<number, CollectionPerm>()),
      rows.some((r) => r.collection_id === null) ? this.collections.permission(caller, null) : Promise.resolve(null),
    ]);
    return (r) => (r.collection_id === null ? root : (perms.get(r.collection_id) ?? null));
  }

  /**
   * Metabase's `param_fields`: each field a parameter maps onto, by id, with its dimensions and name field. The same
   * for every viewer of the dashboard: kept until field metadata changes.
   */
  private async paramFields(dashcards: readonly DashcardRow[]): Promise<Record<string, unknown>> {
    const ids = [...new Set(dashcards.flatMap((dc) => mappedFieldIds(parseJson<unknown[]>(dc.parameter_mappings, []))))].sort(
      (a, b) => a - b,
    );
    if (ids.length === 0) return {};
    return this.fieldCache.remember(`dashboard-param-fields:${ids.join(',')}`, async () => {
      const found = (await this.fields.fieldsByIds(ids)).filter((f) => f.active);
      const hydrated = await this.fieldHydrator.detailed(found);
      return Object.fromEntries(hydrated.map((f) => [String(f.id), f]));
    });
  }
}
