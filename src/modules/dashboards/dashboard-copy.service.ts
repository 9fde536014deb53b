import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { CardsRepository, deriveQuery, snapshotOf } from '../cards';
import { Card } from '../../schema/card.entity';
import { RevisionService } from '../revisions';
import { SearchIndexService } from '../search';
import { DatabaseAccessService } from '../warehouse';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { Dashboard } from '../../schema/dashboard.entity';
import { loadLayout, parseDashcards, parseTabs, syncLayout, type DashcardInput } from './dashcard-layout';
import { entityId } from '../../common/database/entity-id';
import { DashboardWriteService } from './dashboard-write.service';
import type { CopyDashboardDto } from './dashboards.dto';
import { DashboardsRepository } from './dashboards.repository';

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const CARD_MSG = 'value must be a map with `name`, `display`, `dataset_query` (with `database`) and `visualization_settings`.';

/** Copies of dashboards (shallow or deep) and saving a denormalized (automatic) dashboard with its cards. */
@Injectable()
export class DashboardCopyService {
  constructor(
    private readonly db: DataSource,
    private readonly access: DashboardAccessService,
    private readonly repo: DashboardsRepository,
    private readonly hydrator: DashboardHydrator,
    private readonly writes: DashboardWriteService,
    private readonly cards: CardsRepository,
    private readonly revisions: RevisionService,
    private readonly search: SearchIndexService,
    private readonly databases: DatabaseAccessService,
  ) {}

  /**
   * POST /api/dashboard/:id/copy. The questions saved into the source dashboard are always copied (they live only
   * there); with `is_deep_copy` every other card the caller may read is copied into the target collection too, and
   * the dashcards, series and mappings point at the copies.
   */
  async copy(caller: AuthUser, fromId: number, body: CopyDashboardDto): Promise<number> {
    const { row } = await this.access.readable(caller, fromId);
    const collectionId = body.collection_id !== undefined ? (body.collection_id ?? null) : row.collection_id;
    await this.access.assertWriteCollection(caller, collectionId);
    const onIt = [...(await this.repo.cardIdsOn(fromId))];
    const cardRows = onIt.length ? await this.cards.byIds(onIt) : [];
    const perm = await this.hydrator.cardPerms(caller, cardRows);
    const ownOf = (r: (typeof cardRows)[number]) => r.dashboard_id === fromId;
    const toCopy = cardRows.filter((r) => ownOf(r) || (body.is_deep_copy === true && perm(r) !== null)).map((r) => r.id);
    return this.db.transaction(async (tx) => {
      const source = await tx.findOneByOrFail(Dashboard, { id: fromId });
      const d = await tx.save(
        tx.create(Dashboard, {
          name: body.name ?? source.name,
          description: body.description !== undefined ? body.description : source.description,
          parameters: source.parameters,
          collection_id: collectionId,
          collection_position: body.collection_position ?? null,
          cache_ttl: source.cache_ttl,
          width: source.width,
          auto_apply_filters: source.auto_apply_filters,
          creator_id: caller.id,
          entity_id: entityId(),
        }),
      );
      const remap = new Map<number, number>();
      for (const cardId of toCopy) {
        const original = await tx.findOneByOrFail(Card, { id: cardId });
        const own = cardRows.find((r) => r.id === cardId && ownOf(r)) !== undefined;
        remap.set(cardId, await this.copyCard(tx, caller, original, collectionId, own ? d.id : null));
      }
      const layout = await loadLayout(tx, fromId);
      const m = (id: number | null) => (id === null ? null : (remap.get(id) ?? id));
      const dashcards: DashcardInput[] = layout.cards.map((c) => ({
        id: -c.id,
        card_id: m(c.card_id),
        dashboard_tab_id: c.dashboard_tab_id === null ? null : -c.dashboard_tab_id,
        action_id: c.action_id ?? null,
        row: c.row,
        col: c.col,
        size_x: c.size_x,
        size_y: c.size_y,
        parameter_mappings: (JSON.parse(c.parameter_mappings ?? '[]') as Array<Record<string, unknown>>).map((pm) =>
          typeof pm.card_id === 'number' ? { ...pm, card_id: m(pm.card_id) } : pm,
        ),
        visualization_settings: JSON.parse(c.visualization_settings ?? '{}'),
        inline_parameters: JSON.parse(c.inline_parameters ?? '[]'),
        series: (layout.seriesOf.get(c.id) ?? []).map((s) => m(s) as number),
      }));
      await syncLayout(
        tx,
        d.id,
        dashcards,
        layout.tabs.map((t) => ({ id: -t.id, name: t.name })),
      );
      await this.writes.saved(tx, caller, d, true);
      return d.id;
    });
  }

  /**
   * POST /api/dashboard/save(/collection/:id): a dashboard described with its cards in one body (as an automatic
   * dashboard is saved): each dashcard's `card` is created as a question saved into the new dashboard.
   */
  async save(caller: AuthUser, body: Record<string, unknown>, parentCollectionId: number | undefined): Promise<number> {
    const name = body.name;
    if (typeof name !== 'string' || name.trim() === '') throw ValidationError.of('name', MSG.nonBlank, name);
    const rawCollection = parentCollectionId ?? body.collection_id ?? null;
    if (rawCollection !== null && !(Number.isInteger(rawCollection) && (rawCollection as number) > 0))
      throw ValidationError.of('collection_id', MSG.positiveInt, rawCollection);
    const collectionId = rawCollection as number | null;
    const params = body.parameters ?? [];
    if (!Array.isArray(params) || !params.every((p) => isMap(p) && 'id' in p && 'type' in p))
      throw ValidationError.of('parameters', MSG.param, params);
    const rawCards = (body.dashcards ?? body.ordered_cards ?? []) as unknown;
    if (!Array.isArray(rawCards) || !rawCards.every(isMap))
      throw ValidationError.of('dashcards', 'value must be an array of dashcard maps.', rawCards);
    const cardBodies = rawCards.map((dc) => (dc.card === undefined || dc.card === null ? null : dc.card));
    for (const c of cardBodies) {
      if (c === null) continue;
      if (
        !isMap(c) ||
        typeof c.name !== 'string' ||
        !c.name.trim() ||
        !isMap(c.dataset_query) ||
        deriveQuery(c.dataset_query).database_id === null
      )
        throw ValidationError.of('dashcards', CARD_MSG, c);
    }
    await this.access.assertWriteCollection(caller, collectionId);
    const dbs = new Set(cardBodies.filter(isMap).map((c) => deriveQuery(c.dataset_query).database_id as number));
    for (const dbId of dbs) await this.databases.assertCanRead(caller, dbId);
    // Card ids in the body are the unsaved ones of the automatic dashboard: the dashcards are created anew.
    // Their mappings name those unsaved cards too: they are pointed at the new cards below.
    const unsavedMappings = (dc: Record<string, unknown>) =>
      Array.isArray(dc.parameter_mappings)
        ? dc.parameter_mappings.map((pm) => (isMap(pm) ? { ...pm, card_id: null } : pm))
        : dc.parameter_mappings;
    const layout = parseDashcards(
      rawCards.map((dc, i) => ({
        ...dc,
        id: -(i + 1),
        card_id: null,
        series: [],
        dashboard_tab_id: dc.dashboard_tab_id ?? null,
        parameter_mappings: unsavedMappings(dc),
      })),
    );
    const tabs = Array.isArray(body.tabs) ? parseTabs(body.tabs as Array<Record<string, unknown>>) : [];
    return this.db.transaction(async (tx) => {
      const d = await tx.save(
        tx.create(Dashboard, {
          name,
          description: typeof body.description === 'string' ? body.description : null,
          parameters: JSON.stringify(params),
          collection_id: collectionId,
          width: body.width === 'full' ? 'full' : 'fixed',
          creator_id: caller.id,
          entity_id: entityId(),
        }),
      );
      for (const [i, c] of cardBodies.entries()) {
        if (!isMap(c)) continue;
        const cardId = await this.newCard(tx, caller, c, collectionId, d.id);
        layout[i].card_id = cardId;
        layout[i].parameter_mappings = layout[i].parameter_mappings.map((pm) => ({ ...pm, card_id: cardId }));
      }
      await syncLayout(tx, d.id, layout, tabs);
      await this.writes.saved(tx, caller, d, true);
      return d.id;
    });
  }

  /** A copy of a card in `collectionId` (saved into `dashboardId` when given), with its revision and search terms. */
  private async copyCard(
    tx: EntityManager,
    caller: AuthUser,
    c: Card,
    collectionId: number | null,
    dashboardId: number | null,
  ): Promise<number> {
    const { id: _id, created_at: _c, updated_at: _u, public_uuid: _p, made_public_by_id: _m, ...rest } = c;
    const saved = await tx.save(
      tx.create(Card, {
        ...rest,
        collection_id: collectionId,
        collection_position: null,
        creator_id: caller.id,
        entity_id: entityId(),
        view_count: 0,
        archived: false,
        archived_directly: false,
      }),
    );
    await this.cards.replaceReferences(tx, saved.id, deriveQuery(JSON.parse(c.dataset_query)).references);
    await this.afterCard(tx, caller, saved, dashboardId);
    return saved.id;
  }

  private async newCard(
    tx: EntityManager,
    caller: AuthUser,
    c: Record<string, unknown>,
    collectionId: number | null,
    dashboardId: number,
  ): Promise<number> {
    const d = deriveQuery(c.dataset_query);
    const saved = await tx.save(
      tx.create(Card, {
        name: String(c.name).slice(0, 254),
        description: typeof c.description === 'string' ? c.description : null,
        display: typeof c.display === 'string' && c.display ? c.display : 'table',
        dataset_query: JSON.stringify(c.dataset_query),
        visualization_settings: JSON.stringify(isMap(c.visualization_settings) ? c.visualization_settings : {}),
        parameters: JSON.stringify(Array.isArray(c.parameters) ? c.parameters : []),
        parameter_mappings: '[]',
        result_metadata: Array.isArray(c.result_metadata) ? JSON.stringify(c.result_metadata) : null,
        type: 'question',
        database_id: d.database_id,
        table_id: d.table_id,
        query_type: d.query_type,
        source_card_id: d.source_card_id,
        collection_id: collectionId,
        creator_id: caller.id,
        entity_id: entityId(),
      }),
    );
    await this.cards.replaceReferences(tx, saved.id, d.references);
    await this.afterCard(tx, caller, saved, dashboardId);
    return saved.id;
  }

  private async afterCard(tx: EntityManager, caller: AuthUser, card: Card, dashboardId: number | null): Promise<void> {
    await this.cards.setDashboard(tx, card.id, dashboardId);
    await this.revisions.record(tx, { model: 'card', modelId: card.id, userId: caller.id, snapshot: snapshotOf(card), isCreation: true });
    await this.search.index(tx, 'card', card.id, { name: card.name, description: card.description });
  }
}
