import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GrantsCache } from '../../common/cache/grants-cache';
import { AppSql } from '../../common/database/app-sql';
import { typedRows, type RowShape } from '../../common/database/row-values';
import { inList, raw, sql, type Sql } from '../../common/database/sql';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { GrantTable } from './grant-table';

/** The ids these reads return: BIGINT-safe on Postgres, where a driver may answer them as text. */
const IDS: RowShape = { numbers: ['id', 'collection_id', 'personal_owner_id'] };

/** The queries behind collection access checks (CollectionAccessService): grants and personal collections, typed. */
@Injectable()
export class CollectionAccessRepository {
  private readonly sql: AppSql;

  constructor(
    db: DataSource,
    private readonly cache: GrantsCache,
  ) {
    this.sql = new AppSql(db);
  }

  /** The grants of these groups on one collection, or on the Root of `namespace` (collectionId null). */
  grantsOn(groupIds: number[], collectionId: number | null, namespace: string | null): Promise<CollectionPerm[]> {
    return this.cache.of('collection-grants', groupIds, [collectionId, namespace], () =>
      this.readGrantsOn(groupIds, collectionId, namespace),
    );
  }

  private async readGrantsOn(groupIds: number[], collectionId: number | null, namespace: string | null): Promise<CollectionPerm[]> {
    const where =
      collectionId !== null
        ? sql`collection_id = ${collectionId}`
        : namespace === null
          ? sql`collection_id IS NULL AND namespace IS NULL`
          : sql`collection_id IS NULL AND namespace = ${namespace}`;
    const rows = await this.sql.query<{ perm: CollectionPerm }>(
      sql`SELECT perm FROM collection_permission WHERE ${inList(raw('group_id'), groupIds)} AND ${where}`,
    );
    return rows.map((r) => r.perm);
  }

  /** These groups' best grant on each of `ids`: a few index lookups, read each time. */
  async bestGrants(groupIds: number[], ids: number[]): Promise<GrantTable> {
    return GrantTable.of(await this.readBestGrants(groupIds, inList(raw('collection_id'), ids)));
  }

  /**
   * These groups' best grant on every collection, kept (GrantsCache) until a grant changes: listings of thousands of
   * collections check them all, and every member of the same groups reads the same table.
   */
  allBestGrants(groupIds: number[]): Promise<GrantTable> {
    return this.cache.of('collection-best-grants', groupIds, null, async () =>
      GrantTable.of(await this.readBestGrants(groupIds, sql`collection_id IS NOT NULL`)),
    );
  }

  private async readBestGrants(groupIds: number[], which: Sql): Promise<Array<{ collectionId: number; perm: CollectionPerm }>> {
    // 'write' sorts after 'read': MAX is the best grant, one row per collection however many groups hold one.
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT collection_id, MAX(perm) AS perm FROM collection_permission
          WHERE ${inList(raw('group_id'), groupIds)} AND ${which} GROUP BY collection_id`,
    );
    return typedRows<{ collection_id: number; perm: CollectionPerm }>(rows, IDS).map((r) => ({
      collectionId: r.collection_id,
      perm: r.perm,
    }));
  }

  async ownerOf(collectionId: number): Promise<number | null> {
    const rows = await this.sql.query<Record<string, unknown>>(sql`SELECT personal_owner_id FROM collection WHERE id = ${collectionId}`);
    return typedRows<{ personal_owner_id: number | null }>(rows, IDS)[0]?.personal_owner_id ?? null;
  }

  async personalCollection(userId: number): Promise<{ id: number; location: string } | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, location FROM collection WHERE personal_owner_id = ${userId}`,
    );
    return typedRows<{ id: number; location: string }>(rows, IDS)[0] ?? null;
  }

  /** Each user's personal collection id, in one query. */
  async personalCollectionIds(userIds: number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, personal_owner_id FROM collection WHERE ${inList(raw('personal_owner_id'), userIds)}`,
    );
    return new Map(typedRows<{ id: number; personal_owner_id: number }>(rows, IDS).map((r) => [r.personal_owner_id, r.id]));
  }
}
