import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService, CollectionPlace } from '../collections';
import type { DatabaseAccessService } from '../warehouse';
import { CardAccessService } from './card-access.service';
import type { CardsRepository } from './cards.repository';

/** CardAccessService: a card's collection decides what the caller may do with it; a query needs data (and native) access. */
describe('CardAccessService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const perms: Record<string, CollectionPerm | null> = { root: 'read', '1': 'write', '2': null };
  const permOf = (p: CollectionPlace | null) => perms[p === null ? 'root' : String(p.id)] ?? null;

  function setup() {
    const cards = {
      row: jest.fn(async (id: number) =>
        id === 99 ? null : { id, collection_id: id === 10 ? null : id, coll_location: '/', coll_personal_owner_id: null },
      ),
      collections: jest.fn(async (ids: number[]) =>
        ids.filter((id) => id in perms).map((id) => ({ id, location: '/', personal_owner_id: null })),
      ),
      databaseExists: jest.fn(async (id: number) => id === 1),
    };
    const collections = {
      permission: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => permOf(p)),
      assertWrite: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => {
        if (permOf(p) !== 'write') throw new ForbiddenError();
      }),
    };
    const databases = {
      assertCanRead: jest.fn().mockResolvedValue(undefined),
      assertCanRunNative: jest.fn().mockRejectedValue(new ForbiddenError()),
    };
    const service = new CardAccessService(
      cards as unknown as CardsRepository,
      collections as unknown as CollectionAccessService,
      databases as unknown as DatabaseAccessService,
    );
    return { service, databases };
  }

  it('reads and writes a card as its collection allows, Root included; a missing card is a 404', async () => {
    const m = setup();
    await expect(m.service.readable(user, 10)).resolves.toMatchObject({ perm: 'read' });
    await expect(m.service.writable(user, 10)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.writable(user, 1)).resolves.toMatchObject({ id: 1 });
    await expect(m.service.readable(user, 2)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.readable(user, 99)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('checks write access to a target collection, 404 when it does not exist', async () => {
    const m = setup();
    await expect(m.service.assertWriteCollection(user, 1)).resolves.toBeUndefined();
    await expect(m.service.assertWriteCollection(user, null)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.assertWriteCollection(user, 55)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lets a saved query through only on an existing database the caller may query, with native rights for SQL', async () => {
    const m = setup();
    const derived = (database_id: number | null, query_type: 'query' | 'native') =>
      ({ database_id, query_type, table_id: null, source_card_id: null, references: [] }) as never;
    await expect(m.service.assertMayQuery(user, derived(1, 'query'))).resolves.toBeUndefined();
    await expect(m.service.assertMayQuery(user, derived(1, 'native'))).rejects.toBeInstanceOf(ForbiddenError);
    const e = await m.service.assertMayQuery(user, derived(5, 'query')).catch((x: unknown) => x);
    expect((e as ValidationError).errors).toEqual({ dataset_query: 'value must be a query on an existing database.' });
    await expect(m.service.assertMayQuery(user, derived(null, 'native'))).resolves.toBeUndefined();
    expect(m.databases.assertCanRead).toHaveBeenCalledTimes(2);
  });
});
