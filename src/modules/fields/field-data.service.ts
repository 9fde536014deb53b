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
    @Optional() private readonly rowSecurity?: RowSecurityService,
  ) {}

  async summary(caller: AuthUser, id: number): Promise<Array<[string, number | null]>> {
    const { field, table, db } = await this.readable(caller, id);
    const row = (await this.run(db, (e) => summarySql(e, table, field), [])).rows[0] ?? [];
    return [
      ['count', num(row[0]) ?? 0],
      ['distincts', num(row[1])],
    ];
  }

  /** `[[value of field, value of search field], ...]` for search values starting with `value`, any case. */
  async search(caller: Reader, id: number, searchId: number, value: string, limit = SEARCH_DEFAULT): Promise<unknown[][]> {
    const { field, db } = await this.readable(caller, id);
    const { field: searchField, table } = await this.readable(caller, searchId);
    const key = await this.keyOn(field, searchField, db);
    const sql = (e: WarehouseDatabase['engine']) => searchSql(e, table, key, searchField);
    const rows = (await this.run(db, sql, [startsWithPattern(value)], { maxRows: Math.min(limit, SEARCH_MAX) })).rows;
    return rows.map((r) => [r[0], r[1]]);
  }

  /** `[value, remapped value]` for the row whose key is `value`; `[value]` when no row has it. */
  async remapping(caller: Reader, id: number, remappedId: number, value: string): Promise<unknown[]> {
    const { field, db } = await this.readable(caller, id);
    const { field: remapped, table } = await this.readable(caller, remappedId);
    const key = await this.keyOn(field, remapped, db);
    const param = keyParam(key, value);
    if (param === null) return [value];
    const rows = (await this.run(db, (e) => remappingSql(e, table, key, remapped), [param], { maxRows: 1 })).rows;
    return rows.length > 0 ? [rows[0][0], rows[0][1]] : [value];
  }

  /** Sensitive values are for admins only. */
  private async readable(caller: Reader, id: number): Promise<FieldInTable> {
    const found = await this.access.field(caller, id, 'read');
    if (found.field.visibility_type === 'sensitive' && !isAdmin(caller)) throw new ForbiddenError();
    // These read the whole table: a caller restricted by a row policy would see other rows' values.
    if (await this.rowSecurity?.restricts(caller, found.db.id, found.field.table_id)) throw new ForbiddenError();
    return found;
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

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
