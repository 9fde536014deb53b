import type { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, ValidationError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { Card } from '../../schema/card.entity';
import type { CardRow } from '../../schema/card.rows';
import type { BookmarksRepository } from '../bookmarks';
import type { RevisionService } from '../revisions';
import type { SearchIndexService } from '../search';
import type { CardAccessService } from './card-access.service';
import { CardDeleting, CardQueryChanged } from './card-events';
import type { CardHydrator } from './card-hydrator';
import type { CardQueriesService } from './card-queries.service';
import type { CardsRepository } from './cards.repository';
import { CardsService } from './cards.service';

/** CardsService's write rules, with the app DB's transaction, the access checks and the indexes mocked. */
describe('CardsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const QUERY = { database: 1, type: 'query', query: { 'source-table': 10 } };
  const stored = (over: Partial<Card> = {}) =>
    ({
      id: 5,
      name: 'Orders',
      description: 'd',
      display: 'table',
      dataset_query: JSON.stringify(QUERY),
      visualization_settings: '{}',
      type: 'question',
      collection_id: 2,
      collection_position: 3,
      archived: false,
      enable_embedding: false,
      embedding_params: null,
      ...over,
    }) as Card;

  function setup(card: Card = stored()) {
    const events: string[] = [];
    const saved: Card[] = [];
    const tx = {
      create: jest.fn((_e: unknown, v: Partial<Card>) => ({ ...v })),
      save: jest.fn(async (c: Card) => {
        saved.push({ ...c });
        return { ...c, id: c.id ?? 50 };
      }),
      findOneByOrFail: jest.fn(async () => ({ ...card })),
      delete: jest.fn(async () => void events.push('delete card')),
    };
    const db = { transaction: jest.fn(async (work: (t: typeof tx) => unknown) => work(tx)) };
    const cards = {
      bumpViews: jest.fn(),
      replaceReferences: jest.fn().mockResolvedValue(undefined),
      deleteReferences: jest.fn(async () => void events.push('delete references')),
    };
    const row = { ...card, coll_location: '/', coll_personal_owner_id: null } as unknown as CardRow;
    const access = {
      readable: jest.fn().mockResolvedValue({ row, perm: 'write' }),
      writable: jest.fn().mockResolvedValue(row),
      assertWriteCollection: jest.fn().mockResolvedValue(undefined),
      assertMayQuery: jest.fn().mockResolvedValue(undefined),
    };
    const queries = { resultMetadata: jest.fn().mockResolvedValue([{ name: 'computed' }]) };
    const revisions = { record: jest.fn().mockResolvedValue(undefined), forget: jest.fn(async () => void events.push('forget revisions')) };
    const search = { index: jest.fn().mockResolvedValue(undefined), remove: jest.fn(async () => void events.push('forget search')) };
    const bookmarks = { forget: jest.fn(async () => void events.push('forget bookmarks')) };
    const bus = new EventBus();
    bus.on(CardDeleting, (e) => void events.push(`deleting ${e.cardId}`));
    bus.on(CardQueryChanged, (e) => void events.push(`query changed ${e.cardId}`));
    const service = new CardsService(
      db as unknown as DataSource,
      cards as unknown as CardsRepository,
      access as unknown as CardAccessService,
      { one: jest.fn(async (_c: AuthUser, r: unknown) => r) } as unknown as CardHydrator,
      queries as unknown as CardQueriesService,
      revisions as unknown as RevisionService,
      search as unknown as SearchIndexService,
      bookmarks as unknown as BookmarksRepository,
      bus,
    );
    return { service, tx, db, cards, access, queries, revisions, search, events, saved };
  }

  it('refuses a query without a database before checking anything else or writing', async () => {
    const m = setup();
    const e = await m.service
      .create(user, { name: 'x', display: 'table', dataset_query: { type: 'query', query: {} }, visualization_settings: {} } as never)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors).toEqual({
      dataset_query: 'value must be a map with the key `database`, an integer greater than zero.',
    });
    expect(m.db.transaction).not.toHaveBeenCalled();
  });

  it('creates with the derived columns, the older `dataset` flag, computed metadata, references and a revision', async () => {
    const m = setup();
    await m.service.create(user, {
      name: 'New',
      display: 'table',
      dataset_query: QUERY,
      visualization_settings: {},
      dataset: true,
      collection_id: 4,
    } as never);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(user, 4);
    expect(m.access.assertMayQuery).toHaveBeenCalledWith(user, expect.objectContaining({ database_id: 1, table_id: 10 }));
    expect(m.saved[0]).toMatchObject({
      type: 'model',
      database_id: 1,
      table_id: 10,
      query_type: 'query',
      collection_id: 4,
      creator_id: 7,
      result_metadata: JSON.stringify([{ name: 'computed' }]),
      parameters: '[]',
    });
    expect(m.cards.replaceReferences).toHaveBeenCalledWith(m.tx, 50, [{ kind: 'table', ref_id: 10 }]);
    expect(m.revisions.record).toHaveBeenCalledWith(m.tx, expect.objectContaining({ model: 'card', modelId: 50, isCreation: true }));
    expect(m.cards.bumpViews).not.toHaveBeenCalled();
  });

  it('lets only admins change embedding, but takes the same values sent back from anyone', async () => {
    const m = setup(stored({ enable_embedding: true, embedding_params: '{"a":"enabled"}' }));
    await expect(m.service.update(user, 5, { enable_embedding: false } as never)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.update(user, 5, { embedding_params: { a: 'locked' } } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.db.transaction).not.toHaveBeenCalled();
    await m.service.update(user, 5, { name: 'Same', enable_embedding: true, embedding_params: { a: 'enabled' } } as never);
    await m.service.update(admin, 5, { enable_embedding: false } as never);
    expect(m.saved.at(-1)!.enable_embedding).toBe(false);
  });

  it('re-derives, re-checks and announces the query only when it changed', async () => {
    const same = setup();
    await same.service.update(user, 5, { name: 'Renamed', dataset_query: QUERY } as never);
    expect(same.access.assertMayQuery).not.toHaveBeenCalled();
    expect(same.queries.resultMetadata).not.toHaveBeenCalled();
    expect(same.cards.replaceReferences).not.toHaveBeenCalled();
    expect(same.events).toEqual([]);
    expect(same.saved[0]).toMatchObject({ name: 'Renamed' });

    const changed = setup();
    const other = { database: 1, type: 'native', native: { query: 'select 1' } };
    await changed.service.update(user, 5, { dataset_query: other } as never);
    expect(changed.access.assertMayQuery).toHaveBeenCalled();
    expect(changed.saved[0]).toMatchObject({
      query_type: 'native',
      table_id: null,
      result_metadata: JSON.stringify([{ name: 'computed' }]),
    });
    expect(changed.events).toEqual(['query changed 5']);
  });

  it('checks write access to the destination only when the card moves; archiving unpins it', async () => {
    const m = setup();
    await m.service.update(user, 5, { collection_id: 2, description: '' } as never);
    expect(m.access.assertWriteCollection).not.toHaveBeenCalled();
    expect(m.saved[0].description).toBeNull();

    await m.service.update(user, 5, { collection_id: null } as never);
    expect(m.access.assertWriteCollection).toHaveBeenCalledWith(user, null);

    await m.service.update(user, 5, { archived: true } as never);
    expect(m.saved.at(-1)).toMatchObject({ archived: true, archived_directly: true, collection_position: null });
  });

  it('deletes after telling the listeners, with its references, revisions, bookmarks and search terms', async () => {
    const m = setup();
    await m.service.remove(user, 5);
    expect(m.events).toEqual(['deleting 5', 'delete references', 'forget revisions', 'forget bookmarks', 'forget search', 'delete card']);
    const denied = setup();
    denied.access.writable.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.remove(user, 5)).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.events).toEqual([]);
  });

  it('copies as "Copy of" in the same collection, made by the caller; a bulk move without a destination only checks', async () => {
    const m = setup();
    await m.service.copy(user, 5);
    expect(m.saved[0]).toMatchObject({ name: 'Copy of Orders', collection_id: 2, creator_id: 7, type: 'question' });

    const b = setup();
    await expect(b.service.bulkMove(user, [5, 5, 6], undefined)).resolves.toEqual({ status: 'success' });
    expect(b.access.writable.mock.calls.map((c) => c[1])).toEqual([5, 6]);
    expect(b.db.transaction).not.toHaveBeenCalled();

    await b.service.move(user, [5], 9);
    expect(b.saved[0]).toMatchObject({ collection_id: 9, collection_position: null });
  });
});
