import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { grantsWritten } from '../../common/cache/grants-cache';
import { AppSql } from '../../common/database/app-sql';
import { typedRows, type RowShape } from '../../common/database/row-values';
import { ID_SHAPE } from '../../schema/row-shape';
import type { CollectionPerm } from '../../schema/collection-permission.entity';

export interface GrantRow {
  group_id: number;
  /** null: the Root collection of the namespace. */
  collection_id: number | null;
  perm: CollectionPerm;
}

export const GRANT_ROW_SHAPE: RowShape = { numbers: ['group_id', 'collection_id'] };

/** One group's grant to set (`none` removes it). */
export interface GrantChange {
  group_id: number;
  collection_id: number | null;
  perm: CollectionPerm | 'none';
}

/** Every query on `collection_permission` and `collection_permission_revision`. */
@Injectable()
export class CollectionGrantsRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * A new collection's grants: a copy of its parent's, or of the Root's of its namespace for a top-level one.
   * One INSERT ... SELECT whatever the number of groups.
   */
  async inherit(tx: EntityManager, childIds: number[], parentId: number | null, namespace: string | null): Promise<void> {
    for (const id of childIds) {
      if (parentId !== null) {
        await this.write(
          tx,
          'INSERT INTO collection_permission (group_id, collection_id, namespace, perm)' +
            ' SELECT group_id, $1, $2, perm FROM collection_permission WHERE collection_id = $3',
          [id, namespace, parentId],
        );
      } else if (namespace === null) {
        await this.write(
          tx,
          'INSERT INTO collection_permission (group_id, collection_id, namespace, perm)' +
            ' SELECT group_id, $1, NULL, perm FROM collection_permission WHERE collection_id IS NULL AND namespace IS NULL',
          [id],
        );
      } else {
        await this.write(
          tx,
          'INSERT INTO collection_permission (group_id, collection_id, namespace, perm)' +
            ' SELECT group_id, $1, $2, perm FROM collection_permission WHERE collection_id IS NULL AND namespace = $3',
          [id, namespace, namespace],
        );
      }
    }
  }

  async removeFor(tx: EntityManager, collectionIds: number[]): Promise<void> {
    grantsWritten(tx);
    for (let i = 0; i < collectionIds.length; i += 5000) {
      await tx
        .createQueryBuilder()
        .delete()
        .from('collection_permission')
        .where('collection_id IN (:...ids)', { ids: collectionIds.slice(i, i + 5000) })
        .execute();
    }
  }

  /** The grants of the Root of `namespace` and of every collection in it (joined, so rows without a namespace count). */
  async graphRows(namespace: string | null, tx?: EntityManager): Promise<GrantRow[]> {
    const ns = namespace === null ? 'IS NULL' : '= $1';
    const params = namespace === null ? [] : [namespace];
    const rows = await this.read<GrantRow>(
      `SELECT p.group_id, p.collection_id, p.perm FROM collection_permission p JOIN collection c ON c.id = p.collection_id
       WHERE c.namespace ${ns}
       UNION ALL
       SELECT group_id, collection_id, perm FROM collection_permission WHERE collection_id IS NULL AND namespace ${ns}`,
      params,
      GRANT_ROW_SHAPE,
      tx,
    );
    return rows.map((r) => ({ group_id: r.group_id, collection_id: r.collection_id, perm: r.perm }));
  }

  async apply(tx: EntityManager, changes: GrantChange[], namespace: string | null): Promise<void> {
    for (const c of changes) {
      if (c.collection_id === null) {
        const ns = namespace === null ? 'namespace IS NULL' : 'namespace = $2';
        await this.write(
          tx,
          `DELETE FROM collection_permission WHERE group_id = $1 AND collection_id IS NULL AND ${ns}`,
          namespace === null ? [c.group_id] : [c.group_id, namespace],
        );
      } else {
        await this.write(tx, 'DELETE FROM collection_permission WHERE group_id = $1 AND collection_id = $2', [c.group_id, c.collection_id]);
      }
      if (c.perm !== 'none') {
        await this.write(tx, 'INSERT INTO collection_permission (group_id, collection_id, namespace, perm) VALUES ($1, $2, $3, $4)', [
          c.group_id,
          c.collection_id,
          namespace,
          c.perm,
        ]);
      }
    }
  }

  /** Every group but Administrators (whose members are superusers: the graph does not apply to them). */
  async groupIds(tx?: EntityManager): Promise<number[]> {
    const rows = await this.read<{ id: number }>(
      "SELECT id FROM permissions_group WHERE magic_group_type IS NULL OR magic_group_type <> 'admin' ORDER BY id",
      [],
      ID_SHAPE,
      tx,
    );
    return rows.map((r) => r.id);
  }

  /** The graph's revision: the id of the latest collection_permission_revision row, 0 before the first. */
  async revision(tx?: EntityManager): Promise<number> {
    const rows = await this.read<{ id: number | null }>('SELECT MAX(id) AS id FROM collection_permission_revision', [], ID_SHAPE, tx);
    return rows[0]?.id ?? 0;
  }

  async addRevision(tx: EntityManager, before: unknown, after: unknown, userId: number): Promise<number> {
    await this.write(tx, 'INSERT INTO collection_permission_revision ("before", "after", user_id) VALUES ($1, $2, $3)', [
      JSON.stringify(before),
      JSON.stringify(after),
      userId,
    ]);
    return this.revision(tx);
  }

  /** Serializes graph writers on Postgres (SQLite runs one transaction at a time already). */
  async lockGraph(tx: EntityManager): Promise<void> {
    if (this.sql.pg) await tx.query("SELECT pg_advisory_xact_lock(hashtext('collection_permission_graph'))");
  }

  private async read<T>(sql: string, params: unknown[], shape: RowShape, tx?: EntityManager): Promise<T[]> {
    const rows: Record<string, unknown>[] = tx
      ? await tx.query(this.bind(sql), this.values(sql, params))
      : await this.sql.query<Record<string, unknown>>(sql, params);
    return typedRows<T>(rows, shape);
  }

  private async write(tx: EntityManager, sql: string, params: unknown[]): Promise<void> {
    grantsWritten(tx);
    await tx.query(this.bind(sql), this.values(sql, params));
  }

  private bind(sql: string): string {
    return this.sql.pg ? sql : sql.replace(/\$\d+/g, '?');
  }

  /** SQLite binds `?` in order of appearance: the values follow the `$n` as they occur. */
  private values(sql: string, params: unknown[]): unknown[] {
    if (this.sql.pg) return params;
    return [...sql.matchAll(/\$(\d+)/g)].map((m) => params[Number(m[1]) - 1]);
  }
}
