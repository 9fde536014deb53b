import { QueryFailedError } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { sha256Hex } from '../../common/crypto/hashing';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { ApiKey } from '../../schema/api-key.entity';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import type { UsersService } from '../users';
import type { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** ApiKeysService: what is stored of a key, the key's user and group, and name clashes; repository and users mocked. */
describe('ApiKeysService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const stored = (over: Partial<ApiKey> = {}) =>
    ({ id: 3, user_id: 50, name: 'CI', key_hash: 'h', key_prefix: 'mb_abcd', creator_id: 1, updated_by_id: 1, ...over }) as ApiKey;

  function setup(opts: { byName?: ApiKey | null; key?: ApiKey | null; group?: boolean } = {}) {
    const rows = new Map<number, ApiKey>(opts.key === null ? [] : [[3, opts.key ?? stored()]]);
    const keys = {
      transaction: jest.fn(async (work: (tx: unknown) => unknown) => work('tx')),
      findByName: jest.fn().mockResolvedValue(opts.byName ?? null),
      findGroup: jest.fn(async (id: number) => (opts.group === false ? null : { id, name: `group ${id}` })),
      insert: jest.fn(async (row: Partial<ApiKey>) => ({ id: 4, ...row }) as ApiKey),
      findById: jest.fn(async (id: number) => rows.get(id) ?? null),
      update: jest.fn(async (id: number, changes: Partial<ApiKey>) => void rows.set(id, { ...rows.get(id)!, ...changes })),
      moveUserToGroup: jest.fn().mockResolvedValue(undefined),
      renameUser: jest.fn().mockResolvedValue(undefined),
      delete: jest.fn().mockResolvedValue(undefined),
      deactivateUser: jest.fn().mockResolvedValue(undefined),
      displayGroups: jest.fn().mockResolvedValue(new Map([[50, { id: 5, name: 'Analysts' }]])),
      usersByIds: jest.fn().mockResolvedValue(new Map([[1, { id: 1, first_name: 'Ada', last_name: 'L', email: 'ada@x' }]])),
    };
    const users = { create: jest.fn().mockResolvedValue({ id: 50 }) };
    const service = new ApiKeysService(keys as unknown as ApiKeysRepository, users as unknown as UsersService);
    return { service, keys, users };
  }

  it('stores only the hash and a short prefix of a new key, shows the key once, and makes it a user of its group', async () => {
    const m = setup();
    const view = await m.service.create({ name: 'CI', group_id: 5 } as never, admin);
    const key = (view as { unmasked_key: string }).unmasked_key;
    expect(key).toMatch(/^mb_[A-Za-z0-9+/]{43}=$/);
    const inserted = m.keys.insert.mock.calls[0][0];
    expect(inserted).toEqual({
      user_id: 50,
      name: 'CI',
      key_hash: sha256Hex(key),
      key_prefix: key.slice(0, 7),
      creator_id: 1,
      updated_by_id: 1,
    });
    expect(m.users.create).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'api-key', first_name: 'CI', is_superuser: false, group_ids: [5] }),
      'tx',
    );
    await m.service.create({ name: 'Admin key', group_id: ADMIN_GROUP_ID } as never, admin);
    expect(m.users.create).toHaveBeenLastCalledWith(expect.objectContaining({ is_superuser: true }), 'tx');
  });

  it('refuses a name in use (also when a concurrent insert wins the unique index) and an unknown group', async () => {
    const taken = setup({ byName: stored({ id: 9 }) });
    const e = await taken.service.create({ name: 'CI', group_id: 5 } as never, admin).catch((x: unknown) => x);
    expect((e as ValidationError).errors).toEqual({ name: 'An API key with this name already exists.' });
    expect(taken.users.create).not.toHaveBeenCalled();

    const raced = setup();
    raced.keys.insert.mockRejectedValue(
      new QueryFailedError('INSERT', [], Object.assign(new Error('dup'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })),
    );
    const r = await raced.service.create({ name: 'CI', group_id: 5 } as never, admin).catch((x: unknown) => x);
    expect((r as ValidationError).errors).toEqual({ name: 'An API key with this name already exists.' });

    const noGroup = setup({ group: false });
    const g = await noGroup.service.create({ name: 'CI', group_id: 99 } as never, admin).catch((x: unknown) => x);
    expect((g as ValidationError).errors).toEqual({ group_id: 'value must be the id of an existing group.' });
  });

  it('renames the key with its user, may keep its own name, and moves its user to another group', async () => {
    const m = setup({ byName: stored() });
    await m.service.update(3, { name: 'CI', group_id: 6 } as never, admin);
    expect(m.keys.renameUser).toHaveBeenCalledWith(50, 'CI', 'tx');
    expect(m.keys.moveUserToGroup).toHaveBeenCalledWith(50, 6, 'tx');
    expect(m.keys.update).toHaveBeenCalledWith(3, { name: 'CI', updated_by_id: 1 }, 'tx');

    const other = setup({ byName: stored({ id: 9 }) });
    await expect(other.service.update(3, { name: 'Taken' } as never, admin)).rejects.toBeInstanceOf(ValidationError);
    await expect(setup({ key: null }).service.update(3, { name: 'x' } as never, admin)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('regenerates a new key for the same user, and deletes the key while keeping its user, deactivated', async () => {
    const m = setup();
    const view = (await m.service.regenerate(3, admin)) as { unmasked_key: string };
    expect(m.keys.update).toHaveBeenCalledWith(
      3,
      { key_hash: sha256Hex(view.unmasked_key), key_prefix: view.unmasked_key.slice(0, 7), updated_by_id: 1 },
      'tx',
    );
    expect(m.users.create).not.toHaveBeenCalled();

    await m.service.delete(3);
    expect(m.keys.delete).toHaveBeenCalledWith(3, 'tx');
    expect(m.keys.deactivateUser).toHaveBeenCalledWith(50, 'tx');
    await expect(setup({ key: null }).service.delete(3)).rejects.toBeInstanceOf(NotFoundError);
  });
});
