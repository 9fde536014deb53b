import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { typedRow, type RowShape } from '../../common/database/row-values';
import { and, inList, raw, sql, type Sql } from '../../common/database/sql';
import { Collection } from '../../schema/collection.entity';
import { subtreeRange } from './location';

/** A collection row as the listings read it (booleans and dates normalized across the two app databases). */
export interface CollectionRow {
  id: number;
  name: string;
  description: string | null;
  location: string;
  personal_owner_id: number | null;
  namespace: string | null;
  authority_level: string | null;
  slug: string | null;
  entity_id: string | null;
  archived: boolean;
  archived_directly: boolean;
  created_at: string | null;
}

export const COLLECTION_ROW_SHAPE: RowShape = { numbers: ['id', 'personal_owner_id'], booleans: ['archived', 'archived_directly'] };

const BASE_COLUMNS =
  'id, name, description, location, personal_owner_id, namespace, authority_level, slug, entity_id, archived, archived_directly';
/**
 * Postgres answers the time as ISO text: the driver would otherwise parse every timestamp into a Date only for it to be
 * printed again (a third of the time of a listing of 30,000). SQLite keeps UTC text already.
 */
const PG_CREATED_AT = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
/** What the tree shows of a collection: fewer columns to read and convert for a listing of tens of thousands. */
const TREE_COLUMNS = 'id, name, description, location, personal_owner_id, namespace, authority_level, slug, archived';

/** Where a collection sits, and no more: what a listing needs of the thousands of collections below the ones it shows. */
export type CollectionShape = Pick<CollectionRow, 'id' | 'location' | 'personal_owner_id' | 'namespace' | 'archived'>;

/** Exactly the columns of idx_collection_location_tree, so that a subtree is read from the index alone. */
const SHAPE_COLUMNS = 'id, location, personal_owner_id, namespace, archived';

/** Which rows of a namespace a listing wants. */
export interface CollectionFilter {
  namespace: string | null;
  /** true: only archived; false: only unarchived; undefined: both. */
  archived?: boolean;
}

/**
 * Every query on `collection`. Reads go through AppSql (plain SQL, one statement each); writes take the caller's
 * transaction. Subtrees are `location` range scans on idx_collection_location_tree.
 */
@Injectable()
export class CollectionsRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  get pg(): boolean {
    return this.sql.pg;
  }

  private get columns(): string {
    return `${BASE_COLUMNS}, ${this.sql.pg ? PG_CREATED_AT : 'created_at'}`;
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async findById(id: number, tx?: EntityManager): Promise<CollectionRow | null> {
    const rows = await this.read(`SELECT ${this.columns} FROM collection WHERE id = $1`, [id], tx);
    return rows[0] ?? null;
  }

  async findByIds(ids: number[]): Promise<CollectionRow[]> {
    if (ids.length === 0) return [];
    return this.read(sql`SELECT ${raw(this.columns)} FROM collection WHERE ${inList(raw('id'), ids)}`);
  }

  /**
   * Every collection of a namespace (one index scan on idx_collection_namespace); `light` reads the tree's columns
   * only; `only` narrows to a condition on `id` (the access service's readable condition, its values from $1).
   */
  async inNamespace(f: CollectionFilter, light = false, only?: Sql): Promise<CollectionRow[]> {
    return this.read(sql`SELECT ${raw(light ? TREE_COLUMNS : this.columns)} FROM collection WHERE ${and(...this.filter(f), only)}`);
  }

  /** The collections directly inside the place whose children live at `location`. */
  async childrenAt(location: string, f: CollectionFilter): Promise<CollectionRow[]> {
    return this.read(sql`SELECT ${raw(this.columns)} FROM collection WHERE ${and(sql`location = ${location}`, ...this.filter(f))}`);
  }

  /** Every collection below the place whose children live at `prefix` (a range scan). */
  async subtree(prefix: string, tx?: EntityManager): Promise<CollectionRow[]> {
    const [lo, hi] = subtreeRange(prefix);
    return this.read(`SELECT ${this.columns} FROM collection WHERE location >= $1 AND location < $2`, [lo, hi], tx);
  }

  /** Where the collections of `namespace` below `prefix` sit: one range scan of an index that holds every column read. */
  subtreeShapes(prefix: string, namespace: string | null): Promise<CollectionShape[]> {
    const [lo, hi] = subtreeRange(prefix);
    const where = and(sql`location >= ${lo} AND location < ${hi}`, ...this.filter({ namespace }));
    return this.read(sql`SELECT ${raw(SHAPE_COLUMNS)} FROM collection WHERE ${where}`);
  }

  /** Every collection of a namespace, where they sit only (see subtreeShapes). */
  shapesInNamespace(namespace: string | null): Promise<CollectionShape[]> {
    return this.read(sql`SELECT ${raw(SHAPE_COLUMNS)} FROM collection WHERE ${and(...this.filter({ namespace }))}`);
  }

  async insert(tx: EntityManager, c: Omit<CollectionRow, 'id' | 'created_at' | 'archived' | 'archived_directly'>): Promise<number> {
    const result = await tx.insert(Collection, { ...c, archived: false, archived_directly: false });
    return Number(result.identifiers[0].id);
  }

  async update(
    tx: EntityManager,
    id: number,
    changes: Partial<Pick<CollectionRow, 'name' | 'description' | 'authority_level' | 'slug'>>,
  ): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await tx.createQueryBuilder().update('collection').set(changes).where('id = :id', { id }).execute();
  }

  async setArchived(tx: EntityManager, ids: number[], archived: boolean, directly: boolean): Promise<void> {
    for (let i = 0; i < ids.length; i += 5000) {
      await tx
        .createQueryBuilder()
        .update('collection')
        .set({ archived, archived_directly: directly })
        .where('id IN (:...ids)', { ids: ids.slice(i, i + 5000) })
        .execute();
    }
  }

  /** Moves a collection and its subtree: its own location becomes `to`, its descendants' prefix follows. */
  async move(tx: EntityManager, c: { id: number; location: string }, to: string): Promise<void> {
    const oldPrefix = `${c.location}${c.id}/`;
    const newPrefix = `${to}${c.id}/`;
    const [lo, hi] = subtreeRange(oldPrefix);
    await this.write(tx, 'UPDATE collection SET location = $1 WHERE id = $2', [to, c.id]);
    await this.write(tx, 'UPDATE collection SET location = $1 || SUBSTR(location, $2) WHERE location >= $3 AND location < $4', [
      newPrefix,
      oldPrefix.length + 1,
      lo,
      hi,
    ]);
  }

  /** Deletes collections by id (their grants go by cascade); their contents must be gone already. */
  async deleteMany(tx: EntityManager, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 5000) {
      await tx
        .createQueryBuilder()
        .delete()
        .from('collection')
        .where('id IN (:...ids)', { ids: ids.slice(i, i + 5000) })
        .execute();
    }
  }

  /** Serializes moves on Postgres (SQLite runs one transaction at a time already). */
  async lockMoves(tx: EntityManager): Promise<void> {
    if (this.pg) await tx.query("SELECT pg_advisory_xact_lock(hashtext('collection_move'))");
  }

  /** The id of a user's personal collection, read in `tx`. */
  async personalIdIn(tx: EntityManager, userId: number): Promise<number | null> {
    const found = await tx.findOne(Collection, { where: { personal_owner_id: userId }, select: { id: true } });
    return found ? Number(found.id) : null;
  }

  /** Renames a user's personal collection with its owner. */
  async renamePersonal(tx: EntityManager, userId: number, name: string): Promise<void> {
    await tx.createQueryBuilder().update('collection').set({ name }).where('personal_owner_id = :userId', { userId }).execute();
  }

  /** The conditions of a listing's filter. */
  private filter(f: CollectionFilter): Sql[] {
    return [
      f.namespace === null ? sql`namespace IS NULL` : sql`namespace = ${f.namespace}`,
      ...(f.archived === undefined ? [] : [sql`archived = ${f.archived}`]),
    ];
  }

  private async read(statement: Sql | string, params: unknown[] = [], tx?: EntityManager): Promise<CollectionRow[]> {
    if (typeof statement !== 'string') ({ text: statement, values: params } = statement.numbered());
    const rows = tx
      ? await tx.query(this.bind(statement), this.values(params))
      : await this.sql.query<Record<string, unknown>>(statement, params);
    return (rows as Record<string, unknown>[]).map(toRow);
  }

  private async write(tx: EntityManager, sql: string, params: unknown[]): Promise<void> {
    await tx.query(this.bind(sql), this.values(params));
  }

  /** Inside a transaction the ORM's runner takes the SQL: `?` on SQLite (each `$n` used once, in order, here). */
  private bind(sql: string): string {
    return this.pg ? sql : sql.replace(/\$\d+/g, '?');
  }

  private values(params: unknown[]): unknown[] {
    return this.pg ? params : params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
  }
}

/** Normalizes a row in place (no copy: listings convert tens of thousands of them). */
export function toRow(r: Record<string, unknown>): CollectionRow {
  typedRow(r, COLLECTION_ROW_SHAPE);
  r.description ??= null;
  r.personal_owner_id ??= null;
  r.namespace ??= null;
  r.authority_level ??= null;
  r.slug ??= null;
  r.entity_id ??= null;
  // The tree's columns leave these out: such a row reads as not archived (directly).
  r.archived ??= false;
  r.archived_directly ??= false;
  r.created_at = iso(r.created_at);
  return r as unknown as CollectionRow;
}

/** ISO 8601 UTC text, cheaply for the forms the databases give (see PG_CREATED_AT; SQLite's `YYYY-MM-DD HH:MM:SS[.SSS]`). */
function iso(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(s)) return s;
  const sqlite = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d{1,3})?$/.exec(s);
  if (sqlite) return `${sqlite[1]}T${sqlite[2]}${(sqlite[3] ?? '.').padEnd(4, '0')}Z`;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`).toISOString();
}
