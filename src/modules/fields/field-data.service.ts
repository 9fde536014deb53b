import { Injectable, Optional } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { isAdmin, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import { QueryOptions, QueryResult, SqlParam } from '../../query-engine/execute/drivers';
import { WarehouseDatabase } from '../../schema/database.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseConnections } from '../warehouse';
import { RowSecurityService } from '../row-security';
import { WarehouseField } from '../../schema/field.entity';
import { keyParam, remappingSql, searchSql, startsWithPattern, summarySql } from './field-queries';
import { isa } from './field-types';
import { FieldsRepository } from './fields.repository';
import { FieldInTable, MetadataAccess } from './metadata-access.service';
import { PolicyLookups, remappingQuery, searchQuery, summaryQuery } from './policy-lookups';

/** Metabase's cap on value searches (spec "Limits"); 100 when the client names none. */
export const SEARCH_MAX = 1000;
export const SEARCH_DEFAULT = 100;
/** Interactive look-ups: a warehouse that cannot answer in this time is reported, not waited for. */
const LOOKUP_TIMEOUT_MS = 60_000;

/** The field endpoints that read the warehouse itself: summary, value search, and FK remapping. */
@Injectable()
export class FieldDataService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly repo: FieldsRepository,
    private readonly connections: WarehouseConnections,
    private readonly lookups: PolicyLookups,
    @Optional() private readonly rowSecurity?: RowSecurityService,
  ) {}

  async summary(caller: AuthUser, id: number): Promise<Array<[string, number | null]>> {
    const { field, table, db, restricted } = await this.readable(caller, id);
    const row = restricted
      ? ((await this.lookups.rows(caller, summaryQuery(db.id, table.id, field.id, !NOT_COUNTABLE.has(field.base_type)), 1))[0] ?? [])
      : ((await this.run(db, (e) => summarySql(e, table, field), [])).rows[0] ?? []);
    return [
      ['count', num(row[0]) ?? 0],
      ['distincts', num(row[1])],
    ];
  }

  /** `[[value of field, value of search field], ...]` for search values starting with `value`, any case. */
  async search(caller: Reader, id: number, searchId: number, value: string, limit = SEARCH_DEFAULT): Promise<unknown[][]> {
    const restrictor = this.restrictor(caller);
    const { field, db, restricted } = await this.readable(caller, id, restrictor);
    const { field: searchField, table, restricted: searchRestricted } = await this.readable(caller, searchId, restrictor);
    const key = await this.keyOn(field, searchField, db);
    const max = Math.min(limit, SEARCH_MAX);
    // Through the query engine, so that only the rows the caller's policies let through are searched.
    if (restricted || searchRestricted) {
      const q = searchQuery(db.id, table.id, key.id, searchField.id, value, max);
      return (await this.lookups.rows(caller, q, max)).map((r) => [r[0], r[1]]);
    }
    const sql = (e: WarehouseDatabase['engine']) => searchSql(e, table, key, searchField);
    const rows = (await this.run(db, sql, [startsWithPattern(value)], { maxRows: max })).rows;
    return rows.map((r) => [r[0], r[1]]);
  }

  /** `[value, remapped value]` for the row whose key is `value`; `[value]` when no row has it. */
  async remapping(caller: Reader, id: number, remappedId: number, value: string): Promise<unknown[]> {
    const restrictor = this.restrictor(caller);
    const { field, db, restricted } = await this.readable(caller, id, restrictor);
    const { field: remapped, table, restricted: remappedRestricted } = await this.readable(caller, remappedId, restrictor);
    const key = await this.keyOn(field, remapped, db);
    const param = keyParam(key, value);
    if (param === null) return [value];
    const rows =
      restricted || remappedRestricted
        ? await this.lookups.rows(caller, remappingQuery(db.id, table.id, key.id, remapped.id, param), 1)
        : (await this.run(db, (e) => remappingSql(e, table, key, remapped), [param], { maxRows: 1 })).rows;
    return rows.length > 0 ? [rows[0][0], rows[0][1]] : [value];
  }

  /**
   * Sensitive values are for admins only. `restricted`: a row policy (or impersonation) restricts the table for the
   * caller, so its values are read through the query engine (PolicyLookups), never straight from the table.
   */
  private async readable(
    caller: Reader,
    id: number,
    restrictor = this.restrictor(caller),
  ): Promise<FieldInTable & { restricted: boolean }> {
    const found = await this.access.field(caller, id, 'read');
    if (found.field.visibility_type === 'sensitive' && !isAdmin(caller)) throw new ForbiddenError();
    return { ...found, restricted: await restrictor(found.db.id, found.field.table_id) };
  }

  private restrictor(caller: Reader): Restrictor {
    return this.rowSecurity?.restrictor(caller) ?? (async () => false);
  }

  /**
   * The column that identifies rows of `other`'s table: `field` itself when both are in one table, or the field a
   * foreign key `field` points at when `other` is in that table (Metabase's follow-fks).
   */
  private async keyOn(field: WarehouseField, other: WarehouseField, db: WarehouseDatabase): Promise<WarehouseField> {
    if (field.table_id === other.table_id) return field;
    if (isa(field.semantic_type, 'type/FK') && field.fk_target_field_id !== null) {
      const target = await this.repo.findField(field.fk_target_field_id);
      const targetTable: WarehouseTable | null = target ? await this.repo.findTable(target.table_id) : null;
      if (target && target.active && targetTable?.db_id === db.id && target.table_id === other.table_id) return target;
    }
    throw new MessageError('The second field must belong to the same table as the first, or to the table its foreign key points to.');
  }

  /** A read-only look-up; a WarehouseError is answered by the exception filter. */
  private async run(
    db: WarehouseDatabase,
    sql: (e: WarehouseDatabase['engine']) => string,
    params: SqlParam[],
    opts: QueryOptions = {},
  ): Promise<QueryResult> {
    const driver = this.connections.driverFor(db);
    return driver.query(sql(driver.engine), params, { readOnly: true, timeoutMs: LOOKUP_TIMEOUT_MS, ...opts });
  }
}

type Restrictor = (dbId: number, tableId: number) => Promise<boolean>;

/** Types COUNT(DISTINCT) cannot compare on some engines (as summarySql). */
const NOT_COUNTABLE = new Set(['type/JSON', 'type/Array', 'type/*']);

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
