import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import { WarehouseError } from '../../query-engine/execute/drivers';
import { hasListValues } from '../fields/field-values.service';
import { FieldValuesService } from '../fields/field-values.service';
import { FieldInTable, MetadataAccess } from '../fields/metadata-access.service';
import { WarehouseConnections } from '../warehouse/warehouse-connections';
import { containsPattern, distinctValuesSql, NOT_COMPARABLE } from './parameter-values.sql';

/** Metabase's cap on parameter values and value searches (spec "Limits": first 1000 results). */
export const PARAMETER_VALUES_MAX = 1000;
const LOOKUP_TIMEOUT_MS = 60_000;

export interface ParameterValues {
  values: unknown[][];
  has_more_values: boolean;
}

export interface ParameterLike {
  id: unknown;
  type: unknown;
  values_source_type?: unknown;
  values_source_config?: { values?: unknown } | null;
}

/**
 * Values for a parameter of a card or dashboard being edited (POST /api/dataset/parameter/values and
 * .../search/:query): a static list when the parameter has one, else the union of the value lists of its fields
 * (stored FieldValues, or DISTINCT read live for fields that keep no list), de-duplicated and sorted.
 */
@Injectable()
export class ParameterValuesService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly fieldValues: FieldValuesService,
    private readonly connections: WarehouseConnections,
  ) {}

  async values(caller: AuthUser, parameter: ParameterLike, fieldIds: number[] | undefined, query?: string): Promise<ParameterValues> {
    if (parameter.values_source_type === 'static-list') return staticList(parameter, query);
    if (!fieldIds || fieldIds.length === 0) throw new MessageError('Missing field-ids for parameter');
    const found: FieldInTable[] = [];
    // Every field is checked (404 unknown, 403 unreadable) before any warehouse is read.
    for (const id of [...new Set(fieldIds)]) {
      const f = await this.access.field(caller, id, 'read');
      if (f.field.visibility_type === 'sensitive' && !caller.isSuperuser) throw new ForbiddenError();
      found.push(f);
    }
    let more = false;
    const all: unknown[][] = [];
    for (const f of found) {
      const part = await this.ofField(caller, f, query);
      more ||= part.has_more_values;
      all.push(...part.values);
    }
    const merged = sortValues(dedupe(all));
    return { values: merged.slice(0, PARAMETER_VALUES_MAX), has_more_values: more || merged.length > PARAMETER_VALUES_MAX };
  }

  private async ofField(caller: AuthUser, f: FieldInTable, query: string | undefined): Promise<ParameterValues> {
    if (hasListValues(f.field)) {
      const stored = await this.fieldValues.values(caller, f.field.id);
      const pairs = stored.values;
      // A complete stored list answers searches too; a truncated one would miss values, so those search live.
      if (query === undefined) return { values: pairs, has_more_values: stored.has_more_values };
      if (!stored.has_more_values) return { values: pairs.filter((p) => p.some((v) => matches(v, query))), has_more_values: false };
    }
    if (NOT_COMPARABLE.has(f.field.base_type)) return { values: [], has_more_values: false };
    try {
      const driver = this.connections.driverFor(f.db);
      const sql = distinctValuesSql(driver.engine, f.table, f.field, query !== undefined);
      const params = query !== undefined ? [containsPattern(query)] : [];
      const rows = (await driver.query(sql, params, { readOnly: true, timeoutMs: LOOKUP_TIMEOUT_MS, maxRows: PARAMETER_VALUES_MAX + 1 })).rows;
      return { values: rows.slice(0, PARAMETER_VALUES_MAX).map((r) => [r[0]]), has_more_values: rows.length > PARAMETER_VALUES_MAX };
    } catch (e) {
      if (e instanceof WarehouseError) throw new MessageError(e.message, 400);
      throw e;
    }
  }
}

function staticList(parameter: ParameterLike, query: string | undefined): ParameterValues {
  const raw = parameter.values_source_config?.values;
  const list = Array.isArray(raw) ? raw.map((v) => (Array.isArray(v) ? v : [v])) : [];
  const hits = query === undefined ? list : list.filter((p) => p.some((v) => matches(v, query)));
  return { values: hits.slice(0, PARAMETER_VALUES_MAX), has_more_values: hits.length > PARAMETER_VALUES_MAX };
}

function matches(v: unknown, query: string): boolean {
  return v !== null && v !== undefined && String(v).toLowerCase().includes(query.toLowerCase());
}

/** The first pair of each value wins (so a remapped name is kept). */
function dedupe(pairs: unknown[][]): unknown[][] {
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const key = JSON.stringify(p[0] ?? null);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Nulls first, then numbers by value, then everything else by its text. */
function sortValues(pairs: unknown[][]): unknown[][] {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'number' ? 1 : 2);
  return [...pairs].sort((a, b) => {
    const [x, y] = [a[0], b[0]];
    const r = rank(x) - rank(y);
    if (r !== 0) return r;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    const [s, t] = [String(x), String(y)];
    return s < t ? -1 : s > t ? 1 : 0;
  });
}
