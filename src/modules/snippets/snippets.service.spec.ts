import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { NativeQuerySnippet } from '../../schema/snippet.entity';
import type { DatabaseAccessService } from '../warehouse';
import type { SnippetsRepository } from './snippets.repository';
import { SnippetsService } from './snippets.service';

/** SnippetsService: who may create and edit a snippet, and name clashes; repositories and data access mocked. */
describe('SnippetsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const snippet = (over: Partial<NativeQuerySnippet> = {}) =>
    ({
      id: 3,
      name: 'active users',
      content: 'WHERE active',
      description: null,
      collection_id: null,
      creator_id: 7,
      archived: false,
      ...over,
    }) as NativeQuerySnippet;
  const native = (perDb: Record<number, 'write' | 'none'>) =>
    new Map(Object.entries(perDb).map(([db, n]) => [Number(db), { data: 'unrestricted', native: n, download: 'full' }]));

  function setup(opts: { access?: unknown; stored?: NativeQuerySnippet[]; usedOn?: number[] } = {}) {
    const stored = opts.stored ?? [snippet()];
    const repo = {
      byId: jest.fn(async (id: number) => stored.find((s) => s.id === id) ?? null),
      byName: jest.fn(async (name: string) => stored.find((s) => s.name === name) ?? null),
      create: jest.fn(async (v: Partial<NativeQuerySnippet>) => {
        stored.push({ ...v, id: 9, archived: false } as NativeQuerySnippet);
        return 9;
      }),
      update: jest.fn().mockResolvedValue(undefined),
      creators: jest.fn().mockResolvedValue([]),
      databasesUsing: jest.fn(async () => opts.usedOn ?? []),
      recordUse: jest.fn().mockResolvedValue(undefined),
    };
    const access = { accessMap: jest.fn().mockResolvedValue(opts.access ?? native({ 1: 'write' })) };
    const service = new SnippetsService(repo as unknown as SnippetsRepository, access as unknown as DatabaseAccessService);
    return { service, repo };
  }

  it('lets someone create a snippet only with native rights on some database, under a free name', async () => {
    await expect(
      setup({ access: native({ 1: 'none' }) }).service.create({ name: 'x', content: 'y' } as never, user),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const taken = setup();
    const e = await taken.service.create({ name: 'active users', content: 'y' } as never, user).catch((x: unknown) => x);
    expect((e as ValidationError).errors).toEqual({ name: 'A snippet with that name already exists. Please pick a different name.' });
    const m = setup();
    await m.service.create({ name: 'new one', content: 'y' } as never, user);
    expect(m.repo.create).toHaveBeenCalledWith(expect.objectContaining({ name: 'new one', creator_id: 7, description: null }));
  });

  it('needs native rights on every database a snippet was used on to edit it, or on any while it is unused', async () => {
    await expect(
      setup({ access: native({ 1: 'write', 2: 'none' }), usedOn: [1, 2] }).service.update(3, { content: 'z' } as never, user),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const ok = setup({ access: native({ 1: 'write', 2: 'write' }), usedOn: [1, 2] });
    await ok.service.update(3, { content: 'z' } as never, user);
    expect(ok.repo.update).toHaveBeenCalledWith(3, { content: 'z' });
    await expect(
      setup({ access: native({ 2: 'none' }), usedOn: [] }).service.update(3, { content: 'z' } as never, user),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setup({ access: 'all', usedOn: [5] }).service.update(3, { archived: true } as never, user)).resolves.toBeDefined();
  });

  it('renames only to a free name, keeps its own, and 404s an unknown snippet', async () => {
    const m = setup({ stored: [snippet(), snippet({ id: 4, name: 'other' })] });
    await expect(m.service.update(3, { name: 'other' } as never, user)).rejects.toBeInstanceOf(ValidationError);
    await m.service.update(3, { name: 'active users', description: 'd' } as never, user);
    expect(m.repo.update).toHaveBeenCalledWith(3, { name: 'active users', description: 'd' });
    await expect(m.service.update(99, {} as never, user)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('records each use of a snippet on a database once per instance', async () => {
    const m = setup();
    await m.service.recordUse(3, 1);
    await m.service.recordUse(3, 1);
    await m.service.recordUse(3, 2);
    expect(m.repo.recordUse.mock.calls).toEqual([
      [3, 1],
      [3, 2],
    ]);
  });
});
