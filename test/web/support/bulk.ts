import { DataSource } from 'typeorm';
import { WarehouseDatabase } from '../../../src/schema/database.entity';
import { Collection } from '../../../src/schema/collection.entity';
import { PermissionsGroup } from '../../../src/schema/permissions-group.entity';
import { PermissionsGroupMembership } from '../../../src/schema/permissions-group-membership.entity';
import { User } from '../../../src/schema/user.entity';
import type { TestApp } from '../../support/test-app';

/**
 * Rows made in bulk straight in the app database, for the pages that must stay fast with many of them (10,000 people,
 * 50 groups by 20 databases): through the API that would be thousands of requests. Only what those pages read is
 * filled in: these people cannot sign in, and these databases are never connected.
 */
const CHUNK = 500;

async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/** `count` people named `<prefix>-00001`... (emails `<prefix>-00001@example.com`), each in All Users, as the API makes them. */
export async function insertPeople(t: TestApp, count: number, prefix = 'bulk'): Promise<void> {
  const ds = t.app.get(DataSource);
  const users = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(5, '0');
    return {
      email: `${prefix}-${n}@example.com`,
      first_name: prefix,
      last_name: n,
      password_hash: 'not-a-password-hash',
      type: 'personal' as const,
    };
  });
  await inChunks(users, (chunk) => ds.createQueryBuilder().insert().into(User).values(chunk).execute());
  const ids = (await ds.getRepository(User).find({ select: { id: true }, where: { first_name: prefix } })).map((u) => u.id);
  await inChunks(ids, (chunk) =>
    ds
      .createQueryBuilder()
      .insert()
      .into(PermissionsGroupMembership)
      .values(chunk.map((user_id) => ({ user_id, group_id: 1, is_group_manager: false })))
      .execute(),
  );
}

/** `count` groups named `<prefix> 01`...; their ids. */
export async function insertGroups(t: TestApp, count: number, prefix = 'Team'): Promise<number[]> {
  const ds = t.app.get(DataSource);
  const names = Array.from({ length: count }, (_, i) => `${prefix} ${String(i + 1).padStart(2, '0')}`);
  await ds
    .createQueryBuilder()
    .insert()
    .into(PermissionsGroup)
    .values(names.map((name) => ({ name, magic_group_type: null })))
    .execute();
  return (await ds.getRepository(PermissionsGroup).find({ select: { id: true, name: true } }))
    .filter((g) => names.includes(g.name))
    .map((g) => g.id);
}

/** `count` SQLite databases named `<prefix> 01`... that are never connected (their files do not exist); their ids. */
export async function insertDatabases(t: TestApp, count: number, prefix = 'Warehouse'): Promise<number[]> {
  const ds = t.app.get(DataSource);
  const names = Array.from({ length: count }, (_, i) => `${prefix} ${String(i + 1).padStart(2, '0')}`);
  await ds
    .createQueryBuilder()
    .insert()
    .into(WarehouseDatabase)
    .values(names.map((name, i) => ({ name, engine: 'sqlite', details: { db: `/nonexistent/${i}.db` }, initial_sync_status: 'complete' })))
    .execute();
  return (await ds.getRepository(WarehouseDatabase).find({ select: { id: true, name: true } }))
    .filter((d) => names.includes(d.name))
    .map((d) => d.id);
}

/**
 * `tops` collections at the top level (`<prefix> 0001`...), each with `perTop` children (`<prefix> 0001.001`...): the
 * collections tree's load.
 */
export async function insertCollections(t: TestApp, tops: number, perTop: number, prefix = 'Bulk'): Promise<void> {
  const ds = t.app.get(DataSource);
  const name = (i: number) => `${prefix} ${String(i + 1).padStart(4, '0')}`;
  await inChunks(
    Array.from({ length: tops }, (_, i) => ({ name: name(i), location: '/', slug: name(i).toLowerCase().replace(/ /g, '_') })),
    (chunk) => ds.createQueryBuilder().insert().into(Collection).values(chunk).execute(),
  );
  const made = await ds.getRepository(Collection).find({ select: { id: true, name: true }, where: { location: '/' } });
  const children = made
    .filter((c) => c.name.startsWith(`${prefix} `))
    .flatMap((c) =>
      Array.from({ length: perTop }, (_, j) => ({
        name: `${c.name}.${String(j + 1).padStart(3, '0')}`,
        location: `/${c.id}/`,
        slug: null,
      })),
    );
  await inChunks(children, (chunk) => ds.createQueryBuilder().insert().into(Collection).values(chunk).execute());
}
