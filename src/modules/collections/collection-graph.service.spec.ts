import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { CollectionGraphService, MSG_STALE_GRAPH } from './collection-graph.service';
import type { CollectionGrantsRepository, GrantChange } from './collection-grants.repository';
import type { CollectionRow, CollectionsRepository } from './collections.repository';

/** CollectionGraphService: the graph as shown and how a PUT is checked and recorded; grants and collections mocked. */
describe('CollectionGraphService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, location: string, over: Partial<CollectionRow> = {}) =>
    ({ id, location, personal_owner_id: null, namespace: null, ...over }) as CollectionRow;
  // 1 and its child 2 are shared; 3 is a personal collection with 4 inside; 8 is a snippet folder.
  const collections = [
    row(1, '/'),
    row(2, '/1/'),
    row(3, '/', { personal_owner_id: 7 }),
    row(4, '/3/'),
    row(8, '/', { namespace: 'snippets' }),
  ];

  function setup(revision = 3) {
    const grants = {
      groupIds: jest.fn().mockResolvedValue([1, 5]),
      graphRows: jest.fn().mockResolvedValue([
        { group_id: 1, collection_id: null, perm: 'write' },
        { group_id: 5, collection_id: 2, perm: 'read' },
        { group_id: 5, collection_id: 2, perm: 'write' },
        { group_id: 5, collection_id: 4, perm: 'write' },
      ]),
      revision: jest.fn().mockResolvedValue(revision),
      transaction: jest.fn(async (work: (tx: EntityManager) => unknown) => work('tx' as unknown as EntityManager)),
      lockGraph: jest.fn().mockResolvedValue(undefined),
      apply: jest.fn().mockResolvedValue(undefined),
      addRevision: jest.fn().mockResolvedValue(revision + 1),
    };
    const repo = {
      inNamespace: jest.fn(async ({ namespace }: { namespace: string | null }) => collections.filter((c) => c.namespace === namespace)),
      findByIds: jest.fn(async (ids: number[]) => collections.filter((c) => ids.includes(c.id))),
    };
    const service = new CollectionGraphService(grants as unknown as CollectionGrantsRepository, repo as unknown as CollectionsRepository);
    return { service, grants };
  }

  it('shows every group by the Root and each shared collection, with the best grant, and nothing of personal trees', async () => {
    const graph = await setup().service.graph(null);
    expect(graph).toEqual({
      revision: 3,
      groups: {
        '1': { root: 'write', '1': 'none', '2': 'none' },
        '5': { root: 'none', '1': 'none', '2': 'write' },
      },
    });
  });

  it('writes only the entries that change, with a revision of what they were and became', async () => {
    const m = setup();
    await expect(
      m.service.update(admin, null, { revision: 3, groups: { '5': { root: 'read', '2': 'write', '1': 'none' } } }, false),
    ).resolves.toBe(4);
    const changes: GrantChange[] = m.grants.apply.mock.calls[0][1];
    expect(changes).toEqual([{ group_id: 5, collection_id: null, perm: 'read' }]);
    expect(m.grants.addRevision).toHaveBeenCalledWith('tx', { 5: { root: 'none' } }, { 5: { root: 'read' } }, 1);
  });

  it('refuses a stale revision with a 409 unless forced', async () => {
    const m = setup();
    const e = await m.service.update(admin, null, { revision: 2, groups: { '5': { root: 'read' } } }, false).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(409);
    expect((e as MessageError).message).toBe(MSG_STALE_GRAPH);
    expect(m.grants.apply).not.toHaveBeenCalled();
    await m.service.update(admin, null, { revision: null, groups: { '5': { root: 'read' } } }, true);
    expect(m.grants.apply).toHaveBeenCalled();
  });

  it('refuses personal, other-namespace and unknown collections, unknown groups, and bad permissions', async () => {
    const errors = async (groups: Record<string, unknown>) => {
      const e = await setup()
        .service.update(admin, null, { revision: 3, groups }, false)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      return (e as ValidationError).errors.groups;
    };
    for (const id of ['3', '4', '8', '99'])
      expect(await errors({ '5': { [id]: 'read' } })).toBe(
        `collection ${id} is not a collection of this namespace outside personal collections.`,
      );
    expect(await errors({ '2': { root: 'read' } })).toBe('group 2 does not exist or is the Administrators group.');
    expect(await errors({ '5': { root: 'admin' } })).toBe('value must be one of: `read`, `write`, `none`.');
    expect(await errors({ '5': { '0': 'read' } })).toBe('collection ids must be integers greater than zero, or "root".');
    expect(await errors({ x: {} })).toBe('group ids must be integers greater than zero.');
  });
});
