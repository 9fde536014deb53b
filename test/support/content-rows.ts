import { DataSource } from 'typeorm';
import { AppSql } from '../../src/common/database/app-sql';
import { SearchIndexService } from '../../src/modules/search/search-index.service';
import type { TestApp } from './test-app';

/**
 * Collections and cards written straight into the app database (and the search index), for the tests of modules
 * that only read them: bookmarks, search, revisions.
 */
export interface RowCard {
  name: string;
  description?: string | null;
  collection_id?: number | null;
  creator_id: number;
  type?: 'question' | 'model' | 'metric';
  archived?: boolean;
  database_id?: number | null;
}

export async function insertCollection(t: TestApp, name: string, opts: { location?: string; description?: string | null; archived?: boolean } = {}): Promise<number> {
  const sql = new AppSql(t.app.get(DataSource));
  await sql.execute('INSERT INTO collection (name, description, location, archived) VALUES ($1, $2, $3, $4)', [name, opts.description ?? null, opts.location ?? '/', opts.archived ?? false]);
  const id = Number((await sql.query<{ id: number }>('SELECT MAX(id) AS id FROM collection'))[0].id);
  await index(t, 'collection', id, name, opts.description ?? null);
  return id;
}

export async function insertCard(t: TestApp, c: RowCard): Promise<number> {
  const sql = new AppSql(t.app.get(DataSource));
  await sql.execute(
    `INSERT INTO report_card (name, description, display, dataset_query, visualization_settings, type, collection_id, creator_id, archived, database_id)
     VALUES ($1, $2, 'table', '{}', '{}', $3, $4, $5, $6, $7)`,
    [c.name, c.description ?? null, c.type ?? 'question', c.collection_id ?? null, c.creator_id, c.archived ?? false, c.database_id ?? null],
  );
  const id = Number((await sql.query<{ id: number }>('SELECT MAX(id) AS id FROM report_card'))[0].id);
  await index(t, 'card', id, c.name, c.description ?? null);
  return id;
}

/** Grants a group `perm` on a collection. */
export async function grant(t: TestApp, groupId: number, collectionId: number, perm: 'read' | 'write'): Promise<void> {
  await new AppSql(t.app.get(DataSource)).execute('INSERT INTO collection_permission (group_id, collection_id, perm) VALUES ($1, $2, $3)', [groupId, collectionId, perm]);
}

export async function execute(t: TestApp, text: string, params: unknown[] = []): Promise<void> {
  await new AppSql(t.app.get(DataSource)).execute(text, params);
}

async function index(t: TestApp, model: string, id: number, name: string, description: string | null): Promise<void> {
  const ds = t.app.get(DataSource);
  await ds.transaction((tx) => t.app.get(SearchIndexService).index(tx, model, id, { name, description }));
}
