import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { GrantsCache } from '../../common/cache/grants-cache';
import { AppSql } from '../../common/database/app-sql';
import { typedRows, type RowShape } from '../../common/database/row-values';
import { parseJson } from '../../common/database/stored-json';
import { and, sql } from '../../common/database/sql';
import { Sandbox } from '../../schema/sandbox.entity';

/** A policy of one of the caller's groups, with what enforcing it needs. */
export interface PolicyRow {
  id: number;
  group_id: number;
  group_name: string;
  table_id: number;
  card_id: number | null;
  attribute_remappings: Record<string, unknown>;
  /** The dataset query of the policy's question (card_id set), parsed. */
  card_query?: unknown;
  /** Its result columns (`result_metadata`), parsed: a SQL question's columns are what its users see. */
  card_columns?: unknown;
}

export interface FieldRow {
  id: number;
  table_id: number;
  name: string;
  base_type: string;
}

const POLICY_SHAPE: RowShape = { numbers: ['id', 'group_id', 'table_id', 'card_id'] };
const FIELD_SHAPE: RowShape = { numbers: ['id', 'table_id'] };

/** The `sandbox` table, and the few reads of groups, tables, fields and users that policies need. */
@Injectable()
export class RowPoliciesRepository {
  private readonly sql: AppSql;

  constructor(
    private readonly db: DataSource,
    private readonly cache: GrantsCache,
  ) {
    this.sql = new AppSql(db);
  }

  all(): Promise<Sandbox[]> {
    return this.db.manager.find(Sandbox, { order: { id: 'ASC' } });
  }

  byId(id: number): Promise<Sandbox | null> {
    return this.db.manager.findOneBy(Sandbox, { id });
  }

  byGroupAndTable(groupId: number, tableId: number, tx: EntityManager = this.db.manager): Promise<Sandbox | null> {
    return tx.findOneBy(Sandbox, { group_id: groupId, table_id: tableId });
  }

  insert(row: Omit<Sandbox, 'id'>, tx: EntityManager): Promise<Sandbox> {
    return tx.save(Sandbox, tx.create(Sandbox, row));
  }

  async update(
    id: number,
    changes: Partial<Pick<Sandbox, 'card_id' | 'attribute_remappings'>>,
    tx: EntityManager = this.db.manager,
  ): Promise<void> {
    // simple-json: the ORM serializes it, though its partial-entity type does not say so.
    await tx.update(Sandbox, { id }, changes as Parameters<EntityManager['update']>[2]);
  }

  async remove(id: number): Promise<void> {
    await this.db.manager.delete(Sandbox, { id });
  }

  async removeFor(groupId: number, tableId: number, tx: EntityManager): Promise<void> {
    await tx.delete(Sandbox, { group_id: groupId, table_id: tableId });
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async groupExists(id: number): Promise<boolean> {
    return (await this.sql.query(sql`SELECT id FROM permissions_group WHERE id = ${id}`)).length > 0;
  }

  async tableDb(id: number): Promise<number | null> {
    const rows = await this.sql.query<{ db_id: unknown }>(sql`SELECT db_id FROM metabase_table WHERE id = ${id}`);
    return rows.length ? Number(rows[0].db_id) : null;
  }

  async card(id: number): Promise<{ id: number; database_id: number | null; query: unknown; result_metadata: unknown } | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, database_id, dataset_query, result_metadata FROM report_card WHERE id = ${id}`,
    );
    if (!rows.length) return null;
    const r = rows[0];
    return {
      id: Number(r.id),
      database_id: r.database_id === null ? null : Number(r.database_id),
      query: parseJson(r.dataset_query as string, null),
      result_metadata: parseJson(r.result_metadata as string | null, null),
    };
  }

  /** The active fields of these tables (policy columns are named or numbered among them). */
  async fields(tableIds: number[]): Promise<FieldRow[]> {
    if (!tableIds.length) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, table_id, name, base_type FROM metabase_field
        WHERE ${and(this.sql.idIn(sql`table_id`, tableIds), sql`active = ${true}`)}`,
    );
    return typedRows<FieldRow>(rows, FIELD_SHAPE);
  }

  /** The policies of these groups on the tables of one database. */
  forGroups(groupIds: number[], dbId: number): Promise<PolicyRow[]> {
    if (!groupIds.length) return Promise.resolve([]);
    return this.cache.of('policies', groupIds, dbId, () => this.readForGroups(groupIds, dbId));
  }

  private async readForGroups(groupIds: number[], dbId: number): Promise<PolicyRow[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT s.id, s.group_id, g.name AS group_name, s.table_id, s.card_id, s.attribute_remappings, c.dataset_query AS card_query,
        c.result_metadata AS card_columns
        FROM sandbox s JOIN metabase_table t ON t.id = s.table_id JOIN permissions_group g ON g.id = s.group_id
        LEFT JOIN report_card c ON c.id = s.card_id
        WHERE ${and(this.sql.idIn(sql`s.group_id`, groupIds), sql`t.db_id = ${dbId}`)} ORDER BY s.id`,
    );
    return typedRows<Record<string, unknown>>(rows, POLICY_SHAPE).map((r) => ({
      ...(r as unknown as PolicyRow),
      attribute_remappings: parseJson(r.attribute_remappings as string | null, {}) ?? {},
      card_query: typeof r.card_query === 'string' ? parseJson<unknown>(r.card_query, null) : (r.card_query ?? null),
      card_columns: typeof r.card_columns === 'string' ? parseJson<unknown>(r.card_columns, null) : (r.card_columns ?? null),
    }));
  }

  /** Which of these groups may read the database's data (before policies). */
  unrestrictedGroups(groupIds: number[], dbId: number): Promise<number[]> {
    if (!groupIds.length) return Promise.resolve([]);
    return this.cache.of('unrestricted-groups', groupIds, dbId, () => this.readUnrestrictedGroups(groupIds, dbId));
  }

  private async readUnrestrictedGroups(groupIds: number[], dbId: number): Promise<number[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT group_id FROM database_permission
        WHERE ${and(this.sql.idIn(sql`group_id`, groupIds), sql`db_id = ${dbId}`, sql`data = ${'unrestricted'}`)}`,
    );
    return rows.map((r) => Number(r.group_id));
  }

  /** The user's attributes as the admin set them (login_attributes). */
  /** The user's attribute maps (the administrator's and the last sign-in's, null when unset) and their tenant's slug. */
  async attributeSources(userId: number): Promise<{
    login_attributes: Record<string, unknown> | null;
    jwt_attributes: Record<string, unknown> | null;
    tenant_slug: string | null;
  }> {
    const rows = await this.sql.query<{ login_attributes: unknown; jwt_attributes: unknown; tenant_slug: string | null }>(
      sql`SELECT u.login_attributes, u.jwt_attributes, t.slug AS tenant_slug
          FROM core_user u LEFT JOIN tenant t ON t.id = u.tenant_id WHERE u.id = ${userId}`,
    );
    const map = (raw: unknown) => {
      const parsed = typeof raw === 'string' ? parseJson<unknown>(raw, null) : raw;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    };
    return {
      login_attributes: map(rows[0]?.login_attributes),
      jwt_attributes: map(rows[0]?.jwt_attributes),
      tenant_slug: rows[0]?.tenant_slug ?? null,
    };
  }
}
