import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { BookmarksRepository } from '../bookmarks';
import { offerRevisionTarget, RevisionService } from '../revisions';
import { SearchIndexService } from '../search';
import { CardAccessService, placeOf } from './card-access.service';
import { CardHydrator } from './card-hydrator';
import { deriveQuery, type DerivedQuery } from './card-query';
import { CardQueriesService } from './card-queries.service';
import { describeCardChange, snapshotOf } from './card-snapshot';
import { Card, type CardType } from '../../schema/card.entity';
import { CardsRepository } from './cards.repository';
import type { CreateCardDto, UpdateCardDto } from './cards.dto';
import { EventBus } from '../../common/events/event-bus';
import { CardDeleting, CardQueryChanged } from './card-events';
import { entityId } from '../../common/database/entity-id';

const DATABASE_MSG = 'value must be a map with the key `database`, an integer greater than zero.';

/** Metabase's entity ids: 21 URL-safe characters. */
const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** The type a request asks for: `type`, else the older `dataset` flag (true: a model). */
function typeOf(body: { type?: CardType | null; dataset?: boolean | null }, current?: CardType): CardType | undefined {
  if (body.type) return body.type;
  if (body.dataset === true) return 'model';
  if (body.dataset === false) return current === 'model' || current === undefined ? 'question' : current;
  return current === undefined ? 'question' : undefined;
}

/** Creating, changing, copying, moving and deleting cards; every change writes its revision and search terms in its transaction. */
@Injectable()
export class CardsService implements OnModuleInit {
  constructor(
    private readonly db: DataSource,
    private readonly cards: CardsRepository,
    private readonly access: CardAccessService,
    private readonly hydrator: CardHydrator,
    private readonly queries: CardQueriesService,
    private readonly revisions: RevisionService,
    private readonly search: SearchIndexService,
    private readonly bookmarks: BookmarksRepository,
    private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    offerRevisionTarget(this.bus, 'card', {
      assertRead: async (user, id) => void (await this.access.readable(user, id)),
      assertWrite: async (user, id) => void (await this.access.writable(user, id)),
      describe: describeCardChange,
      restore: (tx, user, id, snapshot) => this.restore(tx, user, id, snapshot),
    });
  }

  async get(caller: AuthUser, id: number, opts: { ignoreView?: boolean } = {}) {
    const { row, perm } = await this.access.readable(caller, id);
    if (!opts.ignoreView) {
      await this.cards.bumpViews(id);
      row.view_count += 1;
    }
    return this.hydrator.one(caller, row, perm);
  }

  async create(caller: AuthUser, body: CreateCardDto) {
    const derived = this.derive(body.dataset_query);
    const collectionId = body.collection_id ?? null;
    await this.access.assertWriteCollection(caller, collectionId);
    await this.access.assertMayQuery(caller, derived);
    const resultMetadata = body.result_metadata ?? (await this.queries.resultMetadata(caller, body.dataset_query));
    const id = await this.db.transaction(async (tx) => {
      const card = await tx.save(
        tx.create(Card, {
          name: body.name,
          description: body.description ?? null,
          display: body.display,
          dataset_query: JSON.stringify(body.dataset_query),
          visualization_settings: JSON.stringify(body.visualization_settings),
          parameters: json(body.parameters ?? []),
          parameter_mappings: json(body.parameter_mappings ?? []),
          result_metadata: json(resultMetadata),
          type: typeOf(body)!,
          ...this.derivedColumns(derived),
          collection_id: collectionId,
          collection_position: body.collection_position ?? null,
          cache_ttl: body.cache_ttl ?? null,
          creator_id: caller.id,
          entity_id: entityId(),
        }),
      );
      await this.saved(tx, caller, card, derived, true);
      return card.id;
    });
    return this.get(caller, id, { ignoreView: true });
  }

  async update(caller: AuthUser, id: number, body: UpdateCardDto) {
    const row = await this.access.writable(caller, id);
    // Only admins change embedding; the same values sent back with the rest of the card are no change (Metabase).
    const embeddingChanges =
      (body.enable_embedding !== undefined && body.enable_embedding !== null && body.enable_embedding !== row.enable_embedding) ||
      (body.embedding_params !== undefined &&
        body.embedding_params !== null &&
        JSON.stringify(body.embedding_params) !== (row.embedding_params ?? 'null'));
    if (embeddingChanges && !caller.isSuperuser) throw new ForbiddenError();
    const queryChanged =
      body.dataset_query !== undefined && body.dataset_query !== null && JSON.stringify(body.dataset_query) !== row.dataset_query;
    const derived = queryChanged ? this.derive(body.dataset_query) : null;
    if (derived) await this.access.assertMayQuery(caller, derived);
    if (body.collection_id !== undefined && (body.collection_id ?? null) !== row.collection_id) {
      await this.access.assertWriteCollection(caller, body.collection_id ?? null);
    }
    const metadata = body.result_metadata ?? (derived ? await this.queries.resultMetadata(caller, body.dataset_query) : undefined);
    await this.db.transaction(async (tx) => {
      const card = await tx.findOneByOrFail(Card, { id });
      this.apply(card, body, derived, metadata);
      await tx.save(card);
      await this.saved(tx, caller, card, derived, false);
    });
    // A persisted model's table now holds another query's result: rebuilt in the background (persistence module).
    if (derived) await this.bus.emit(new CardQueryChanged(id));
    return this.get(caller, id, { ignoreView: true });
  }

  /** DELETE: the card, its references, revisions, bookmarks and search terms go for good. */
  async remove(caller: AuthUser, id: number): Promise<void> {
    await this.access.writable(caller, id);
    await this.bus.emit(new CardDeleting(id));
    await this.db.transaction((tx) => this.purge(tx, [id]));
  }

  /**
   * Deletes cards with their references, revisions, bookmarks and search terms, in the caller's transaction (their
   * dashcards, persisted tables' rows and actions go by cascade). `beforePurge` must have run before.
   */
  async purge(tx: EntityManager, ids: number[]): Promise<void> {
    for (const id of ids) {
      await this.cards.deleteReferences(tx, id);
      await this.revisions.forget(tx, 'card', id);
      await this.bookmarks.forget(tx, 'card', id);
      await this.search.remove(tx, 'card', id);
      await tx.delete(Card, { id });
    }
  }

  /** Tells that these cards are about to be purged (outside any transaction: listeners reach the warehouse). */
  async beforePurge(ids: number[]): Promise<void> {
    for (const id of ids) await this.bus.emit(new CardDeleting(id));
  }

  /** POST /api/card/:id/copy: "Copy of <name>", in the same collection, made by the caller. */
  async copy(caller: AuthUser, id: number) {
    const { row } = await this.access.readable(caller, id);
    const sent = JSON.parse(row.dataset_query) as Record<string, unknown>;
    const place = placeOf(row);
    return this.create(caller, {
      name: `Copy of ${row.name}`.slice(0, 254),
      description: row.description,
      display: row.display,
      dataset_query: sent,
      visualization_settings: JSON.parse(row.visualization_settings),
      parameters: row.parameters ? JSON.parse(row.parameters) : [],
      parameter_mappings: row.parameter_mappings ? JSON.parse(row.parameter_mappings) : [],
      result_metadata: row.result_metadata ? JSON.parse(row.result_metadata) : null,
      type: row.type as CardType,
      collection_id: place?.id ?? null,
      cache_ttl: row.cache_ttl,
    });
  }

  /** POST /api/card/collections: write access on each card's collection and on the target (null: Root). */
  async move(caller: AuthUser, cardIds: number[], collectionId: number | null) {
    await this.access.assertWriteCollection(caller, collectionId);
    const ids = [...new Set(cardIds)];
    for (const id of ids) await this.access.writable(caller, id);
    await this.db.transaction(async (tx) => {
      for (const id of ids) {
        const card = await tx.findOneByOrFail(Card, { id });
        card.collection_id = collectionId;
        card.collection_position = null;
        await tx.save(card);
        await this.saved(tx, caller, card, null, false);
      }
    });
    return { status: 'ok' };
  }

  /**
   * POST /api/cards/move: the rules and the one transaction of POST /api/card/collections. Without `collection_id`
   * nothing moves, but the caller must still be able to change every card (Metabase updates each with no changes).
   */
  async bulkMove(caller: AuthUser, cardIds: number[], collectionId: number | null | undefined) {
    if (collectionId === undefined) {
      for (const id of new Set(cardIds)) await this.access.writable(caller, id);
    } else {
      await this.move(caller, cardIds, collectionId);
    }
    return { status: 'success' };
  }

  /** The revision target's restore: the snapshot's editable keys back on the card, as a new revision. */
  private async restore(
    tx: EntityManager,
    _user: AuthUser,
    id: number,
    snapshot: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const card = await tx.findOneBy(Card, { id });
    if (!card) throw new NotFoundError();
    const s = snapshot as Partial<UpdateCardDto> & { dataset_query?: Record<string, unknown> };
    const derived = s.dataset_query ? this.derive(s.dataset_query) : null;
    this.apply(
      card,
      { ...s, type: (snapshot.type as CardType) ?? card.type },
      derived,
      (snapshot.result_metadata as unknown[] | null) ?? null,
    );
    await tx.save(card);
    await this.cards.replaceReferences(tx, id, deriveQuery(JSON.parse(card.dataset_query)).references);
    await this.search.index(tx, 'card', id, { name: card.name, description: card.description });
    return snapshotOf(card);
  }

  private apply(card: Card, body: UpdateCardDto, derived: DerivedQuery | null, metadata: unknown[] | null | undefined): void {
    if (body.name !== undefined) card.name = body.name;
    if (body.display !== undefined) card.display = body.display;
    if (body.description !== undefined) card.description = body.description === null || body.description === '' ? null : body.description;
    if (body.visualization_settings !== undefined && body.visualization_settings !== null)
      card.visualization_settings = JSON.stringify(body.visualization_settings);
    if (derived && body.dataset_query) {
      card.dataset_query = JSON.stringify(body.dataset_query);
      Object.assign(card, this.derivedColumns(derived));
    }
    if (metadata !== undefined) card.result_metadata = json(metadata);
    if (body.parameters !== undefined) card.parameters = json(body.parameters ?? []);
    if (body.collection_id !== undefined) card.collection_id = body.collection_id ?? null;
    if (body.collection_position !== undefined) card.collection_position = body.collection_position ?? null;
    if (body.cache_ttl !== undefined) card.cache_ttl = body.cache_ttl ?? null;
    if (body.collection_preview !== undefined && body.collection_preview !== null) card.collection_preview = body.collection_preview;
    if (body.enable_embedding !== undefined && body.enable_embedding !== null) card.enable_embedding = body.enable_embedding;
    if (body.embedding_params !== undefined && body.embedding_params !== null)
      card.embedding_params = JSON.stringify(body.embedding_params);
    const type = typeOf(body, card.type);
    if (type) card.type = type;
    if (body.archived !== undefined && body.archived !== null && body.archived !== card.archived) {
      card.archived = body.archived;
      card.archived_directly = body.archived;
      // An archived card is no longer pinned.
      if (body.archived) card.collection_position = null;
    }
  }

  /** What every save does in its transaction: references, revision, search terms. */
  private async saved(tx: EntityManager, caller: AuthUser, card: Card, derived: DerivedQuery | null, isCreation: boolean): Promise<void> {
    if (derived) await this.cards.replaceReferences(tx, card.id, derived.references);
    await this.revisions.record(tx, { model: 'card', modelId: card.id, userId: caller.id, snapshot: snapshotOf(card), isCreation });
    await this.search.index(tx, 'card', card.id, { name: card.name, description: card.description });
  }

  private derive(sent: unknown): DerivedQuery {
    const derived = deriveQuery(sent);
    if (derived.database_id === null) throw ValidationError.of('dataset_query', DATABASE_MSG, sent);
    return derived;
  }

  private derivedColumns(d: DerivedQuery): Pick<Card, 'database_id' | 'table_id' | 'query_type' | 'source_card_id'> {
    return { database_id: d.database_id, table_id: d.table_id, query_type: d.query_type, source_card_id: d.source_card_id };
  }
}
