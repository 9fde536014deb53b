import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { DatabasesRepository } from '../databases';
import type { DatabaseAccessService } from '../warehouse';
import type { FieldsRepository } from './fields.repository';
import { MetadataAccess } from './metadata-access.service';

/** MetadataAccess: 404 for what is missing or retired before any permission answer, then data access or admin. */
describe('MetadataAccess', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;

  function setup(canRead = true) {
    const repo = {
      findTable: jest.fn(async (id: number) =>
        id === 5 ? { id: 5, db_id: 1, active: true } : id === 6 ? { id: 6, db_id: 1, active: false } : null,
      ),
      findField: jest.fn(async (id: number) =>
        id === 50 ? { id: 50, table_id: 5, active: true } : id === 51 ? { id: 51, table_id: 5, active: false } : null,
      ),
    };
    const access = {
      assertCanRead: jest.fn(async () => {
        if (!canRead) throw new ForbiddenError();
      }),
      accessTo: jest.fn().mockResolvedValue({ native: 'write' }),
      accessMap: jest.fn(),
      viewableTables: jest.fn(async (_caller: unknown, tables: unknown[]) => tables),
    };
    const databases = { findById: jest.fn().mockResolvedValue({ id: 1, engine: 'postgres', details: { password: 'x' } }) };
    const service = new MetadataAccess(
      repo as unknown as FieldsRepository,
      databases as unknown as DatabasesRepository,
      access as unknown as DatabaseAccessService,
    );
    return { service, access };
  }

  it('answers 404 for unknown or inactive tables and fields, even to callers without access', async () => {
    const m = setup(false);
    for (const p of [
      m.service.table(user, 6, 'read'),
      m.service.table(user, 9, 'read'),
      m.service.field(user, 51, 'read'),
      m.service.field(user, 9, 'write'),
    ])
      await expect(p).rejects.toBeInstanceOf(NotFoundError);
    expect(m.access.assertCanRead).not.toHaveBeenCalled();
    await expect(m.service.field(user, 50, 'read')).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('reads with data access, writes (the data model) as an admin only', async () => {
    const m = setup(true);
    await expect(m.service.field(user, 50, 'read')).resolves.toMatchObject({ field: { id: 50 }, table: { id: 5 }, db: { id: 1 } });
    await expect(m.service.table(user, 5, 'write')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.table(admin, 5, 'write')).resolves.toMatchObject({ table: { id: 5 } });
  });

  it('shows database details to admins only, and never when asked not to', async () => {
    const m = setup();
    const db = { id: 1, engine: 'postgres', details: { host: 'h', password: 'x' } } as never;
    expect((await m.service.dbView(user, db)).details).toBeUndefined();
    expect((await m.service.dbView(admin, db)).details).toMatchObject({ host: 'h', password: '**MetabasePass**' });
    expect((await m.service.dbView(admin, db, true)).details).toBeUndefined();
  });
});
