import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { BookmarksRepository } from '../bookmarks';
import { Card } from '../../schema/card.entity';
import { CardsRepository } from '../cards';
import { Revision } from '../../schema/revision.entity';
import { offerRevisionTarget, RevisionService } from '../revisions';
import { EventBus } from '../../common/events/event-bus';
import { SearchIndexService } from '../search';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { describeDashboardChange, dashboardSnapshot, type SnapshotCard, type SnapshotTab } from './dashboard-snapshot';
import { Dashboard } from '../../schema/dashboard.entity';
import { loadLayout, parseDashcards, parseTabs, syncLayout, deleteDashcards, type DashcardInput, type TabInput } from './dashcard-layout';
import { entityId } from '../../common/database/entity-id';
import type { CreateDashboardDto, UpdateDashboardDto } from './dashboards.dto';
import { DashboardsRepository } from './dashboards.repository';

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * Creating, changing, archiving, deleting and reverting dashboards; each change writes its revision and search terms in
 * its transaction.
 */
@Injectable()
export class DashboardWriteService implements OnModuleInit {
  constructor(
    private readonly db: DataSource,
    private readonly repo: DashboardsRepository,
    private readonly access: DashboardAccessService,
    private readonly hydrator: DashboardHydrator,
    private readonly cards: CardsRepository,
    private readonly revisions: RevisionService,
    private readonly search: SearchIndexService,
    private readonly bookmarks: BookmarksRepository,
    private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    offerRevisionTarget(this.bus, 'dashboard', {
      assertRead: async (user, id) => void (await this.access.readable(user, id)),
      assertWrite: async (user, id) => void (await this.access.writable(user, id)),
      describe: describeDashboardChange,
      restore: (tx, user, id, snapshot) => this.restore(tx, user, id, snapshot),
    });
  }

  async create(caller: AuthUser, body: CreateDashboardDto): Promise<number> {
    const collectionId = body.collection_id ?? null;
    await this.access.assertWriteCollection(caller, collectionId);
    return this.db.transaction(async (tx) => {
      const d = await tx.save(
        tx.create(Dashboard, {
          name: body.name,
          description: body.description ?? null,
          parameters: json(body.parameters ?? []),
          collection_id: collectionId,
          collection_position: body.collection_position ?? null,
          cache_ttl: body.cache_ttl ?? null,
          creator_id: caller.id,
          entity_id: entityId(),
        }),
      );
      await this.saved(tx, caller, d, true);
      return d.id;
    });
  }

  /** PUT /api/dashboard/:id (and the deprecated /cards with `cards` as `dashcards`). */
  async update(caller: AuthUser, id: number, body: UpdateDashboardDto): Promise<void> {
    const row = await this.access.writable(caller, id);
    const embeddingChanges =
      (body.enable_embedding !== undefined && body.enable_embedding !== null && body.enable_embedding !== row.enable_embedding) ||
      (body.embedding_params !== undefined &&
        body.embedding_params !== null &&
        JSON.stringify(body.embedding_params) !== (row.embedding_params ?? 'null'));
    if (embeddingChanges && !caller.isSuperuser) throw new ForbiddenError();
    const moves = body.collection_id !== undefined && (body.collection_id ?? null) !== row.collection_id;
    if (moves) await this.access.assertWriteCollection(caller, body.collection_id ?? null);
    const dashcards = body.dashcards ? parseDashcards(body.dashcards) : undefined;
    const tabs = body.tabs ? parseTabs(body.tabs) : undefined;
    if (dashcards) await this.assertCardsUsable(caller, id, dashcards);
    await this.db.transaction(async (tx) => {
      const d = await tx.findOneByOrFail(Dashboard, { id });
      this.apply(d, body);
      await tx.save(d);
      if (moves) await this.cards.moveWithDashboard(tx, id, d.collection_id);
      await syncLayout(tx, id, dashcards, tabs);
      await this.saved(tx, caller, d, false);
    });
  }

  /** DELETE: the dashboard, its layout, its revisions and bookmarks, and the questions saved into it that no other dashboard shows. */
  async remove(caller: AuthUser, id: number): Promise<void> {
    await this.access.writable(caller, id);
    const own = (await this.repo.ownCardsOnlyHere(id)).map((r) => r.id);
    await this.db.transaction(async (tx) => {
      for (const cardId of own) {
        await this.repo.removeCardEverywhere(tx, cardId);
        await this.cards.deleteReferences(tx, cardId);
        await this.revisions.forget(tx, 'card', cardId);
        await this.bookmarks.forget(tx, 'card', cardId);
        await this.search.remove(tx, 'card', cardId);
        await tx.delete(Card, { id: cardId });
      }
      await this.purge(tx, id);
    });
  }

  /**
   * Deletes the dashboard with its layout, revisions, bookmarks and search terms, in the caller's transaction.
   * Questions saved into it that are left stay, as ordinary questions of its collection.
   */
  async purge(tx: EntityManager, id: number): Promise<void> {
    const layout = await loadLayout(tx, id);
    await deleteDashcards(
      tx,
      layout.cards.map((c) => c.id),
    );
    await tx.delete('dashboard_tab', { dashboard_id: id });
    await this.cards.releaseFromDashboard(tx, id);
    await this.revisions.forget(tx, 'dashboard', id);
    await this.bookmarks.forget(tx, 'dashboard', id);
    await this.search.remove(tx, 'dashboard', id);
    await tx.delete(Dashboard, { id });
  }

  /**
   * Cards newly put on the dashboard (as dashcards or series) must exist (404) and be readable by the caller (403);
   * the ones already on it stay whatever the caller may read of them.
   */
  async assertCardsUsable(caller: AuthUser, dashboardId: number, dashcards: DashcardInput[]): Promise<void> {
    await this.assertActionsExist(dashcards);
    const wanted = [...new Set(dashcards.flatMap((d) => [d.card_id, ...d.series]).filter((x): x is number => x !== null))];
    if (wanted.length === 0) return;
    const onIt = await this.repo.cardIdsOn(dashboardId);
    const fresh = wanted.filter((c) => !onIt.has(c));
    if (fresh.length === 0) return;
    const rows = await this.cards.byIds(fresh);
    if (rows.length !== fresh.length) throw new NotFoundError();
    const perm = await this.hydrator.cardPerms(caller, rows);
    if (rows.some((r) => !perm(r))) throw new ForbiddenError();
  }

  /** The actions dashcards name must exist (404). */
  private async assertActionsExist(dashcards: DashcardInput[]): Promise<void> {
    const ids = [...new Set(dashcards.map((d) => d.action_id).filter((x): x is number => x !== null))];
    if (ids.length === 0) return;
    if ((await this.repo.existingActionIds(ids)).length !== ids.length) throw new NotFoundError();
  }

  /** The revision target's restore: the snapshot's columns, tabs and dashcards back on the dashboard, as a new revision. */
  private async restore(
    tx: EntityManager,
    _user: AuthUser,
    id: number,
    snapshot: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const d = await tx.findOneBy(Dashboard, { id });
    if (!d) throw new NotFoundError();
    const s = snapshot as Omit<Partial<UpdateDashboardDto>, 'tabs'> & { cards?: SnapshotCard[]; tabs?: SnapshotTab[] };
    // A snapshot keeps the documentation columns only when set (older ones never have them): absent means unset.
    const unset = { points_of_interest: null, caveats: null, position: null, show_in_getting_started: false };
    this.apply(d, { ...unset, ...s, archived: s.archived ?? false, dashcards: undefined, tabs: undefined } as UpdateDashboardDto);
    await tx.save(d);
    const snapCards = Array.isArray(s.cards) ? s.cards : [];
    const cardIds = [...new Set(snapCards.flatMap((c) => [c.card_id, ...(c.series ?? [])]).filter((x): x is number => x !== null))];
    const existing = new Set(
      cardIds.length ? (await tx.find(Card, { where: { id: In(cardIds) }, select: { id: true } })).map((c) => c.id) : [],
    );
    const actionIds = [...new Set(snapCards.map((c) => c.action_id).filter((x): x is number => typeof x === 'number'))];
    const actions = new Set<number>(actionIds.length ? await this.repo.existingActionIds(actionIds, tx) : []);
    const tabs: TabInput[] = (Array.isArray(s.tabs) ? s.tabs : []).map((t) => ({ id: t.id, name: t.name }));
    const dashcards: DashcardInput[] = snapCards
      .filter((c) => c.card_id === null || existing.has(c.card_id))
      .map((c) => ({
        id: c.id,
        card_id: c.card_id,
        dashboard_tab_id: c.dashboard_tab_id,
        action_id: c.action_id !== undefined && actions.has(c.action_id) ? c.action_id : null,
        row: c.row,
        col: c.col,
        size_x: c.size_x,
        size_y: c.size_y,
        parameter_mappings: (c.parameter_mappings ?? []) as Array<Record<string, unknown>>,
        visualization_settings: c.visualization_settings ?? {},
        inline_parameters: c.inline_parameters ?? [],
        series: (c.series ?? []).filter((x) => existing.has(x)),
      }));
    await syncLayout(tx, id, dashcards, tabs);
    await this.search.index(tx, 'dashboard', id, { name: d.name, description: d.description });
    const layout = await loadLayout(tx, id);
    return dashboardSnapshot(d, layout.cards, layout.seriesOf, layout.tabs);
  }

  apply(d: Dashboard, body: UpdateDashboardDto): void {
    if (body.name !== undefined && body.name !== null) d.name = body.name;
    if (body.description !== undefined) d.description = body.description === null || body.description === '' ? null : body.description;
    if (body.parameters !== undefined) d.parameters = json(body.parameters ?? []);
    if (body.collection_id !== undefined) d.collection_id = body.collection_id ?? null;
    if (body.collection_position !== undefined) d.collection_position = body.collection_position ?? null;
    if (body.cache_ttl !== undefined) d.cache_ttl = body.cache_ttl ?? null;
    if (body.points_of_interest !== undefined) d.points_of_interest = body.points_of_interest ?? null;
    if (body.caveats !== undefined) d.caveats = body.caveats ?? null;
    if (body.position !== undefined) d.position = body.position ?? null;
    if (body.show_in_getting_started !== undefined) d.show_in_getting_started = body.show_in_getting_started ?? false;
    if (body.width !== undefined && body.width !== null) d.width = body.width;
    if (body.auto_apply_filters !== undefined && body.auto_apply_filters !== null) d.auto_apply_filters = body.auto_apply_filters;
    if (body.enable_embedding !== undefined && body.enable_embedding !== null) d.enable_embedding = body.enable_embedding;
    if (body.embedding_params !== undefined && body.embedding_params !== null) d.embedding_params = JSON.stringify(body.embedding_params);
    if (body.archived !== undefined && body.archived !== null && body.archived !== d.archived) {
      d.archived = body.archived;
      d.archived_directly = body.archived;
      if (body.archived) d.collection_position = null;
    }
  }

  /** What every save does in its transaction: the revision (with the layout) and the search terms. */
  async saved(tx: EntityManager, caller: AuthUser, d: Dashboard, isCreation: boolean): Promise<void> {
    const layout = await loadLayout(tx, d.id);
    const snapshot = dashboardSnapshot(d, layout.cards, layout.seriesOf, layout.tabs);
    // A save that changes nothing (clients send the whole dashboard back) keeps no revision, as in Metabase.
    const latest = isCreation ? null : await tx.findOne(Revision, { where: { model: 'dashboard', model_id: d.id, most_recent: true } });
    if (latest && latest.object === JSON.stringify(snapshot))
      return this.search.index(tx, 'dashboard', d.id, { name: d.name, description: d.description });
    await this.revisions.record(tx, { model: 'dashboard', modelId: d.id, userId: caller.id, snapshot, isCreation });
    await this.search.index(tx, 'dashboard', d.id, { name: d.name, description: d.description });
  }
}
