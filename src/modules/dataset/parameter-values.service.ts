import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { isAdmin, type Reader } from '../../common/auth/shared-grant';
import { describeReceived, ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { DatasetQuery, FieldRef } from '../../query-engine/mbql/types';
import { EventBus } from '../../common/events/event-bus';
import { distinctQuery, FieldInTable, FieldValuesService, hasListValues, LookupRowsQuery, MetadataAccess, PolicyLookups } from '../fields';
import { RowSecurityService } from '../row-security';
import { WarehouseConnections } from '../warehouse';
import { QueryContent } from './query-content';
import { DatasetService } from './dataset.service';
import { CardValuesSource, cardValuesQuery, containsPattern, distinctValuesSql, NOT_COMPARABLE } from './parameter-values.sql';

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
  values_source_config?: { values?: unknown; card_id?: unknown; value_field?: unknown; label_field?: unknown } | null;
}

/**
 * Values for a parameter of a card or dashboard being edited (POST /api/dataset/parameter/values and
 * .../search/:query): a static list when the parameter has one, the distinct values of a column of a card when it
 * takes them from a card, else the union of the value lists of its fields (stored FieldValues, or DISTINCT read live
 * for fields that keep no list), de-duplicated and sorted.
 */
@Injectable()
export class ParameterValuesService implements OnModuleInit {
  constructor(
    private readonly access: MetadataAccess,
    private readonly fieldValues: FieldValuesService,
    private readonly connections: WarehouseConnections,
    private readonly dataset: DatasetService,
    private readonly content: QueryContent,
    private readonly lookups: PolicyLookups,
    private readonly bus: EventBus,
    @Optional() private readonly rowSecurity?: RowSecurityService,
  ) {}

  /** The field look-ups of restricted callers (fields module) run their MBQL here, with the caller's policies. */
  onModuleInit(): void {
    this.bus.answer(LookupRowsQuery, (q) => this.lookupRows(q.caller, q.query, q.maxRows));
  }

  private async lookupRows(caller: Reader, query: DatasetQuery, maxRows: number): Promise<unknown[][]> {
    const result = await this.dataset.run(query, caller, AbortSignal.timeout(LOOKUP_TIMEOUT_MS), { log: false, defaultMaxRows: maxRows });
    // A field the caller's policy leaves out of its table, or a value its type cannot take: the caller's to fix.
    if (result.status !== 'completed') throw new MessageError(result.error, 400);
    return result.data.rows;
  }

  async values(caller: Reader, parameter: ParameterLike, fieldIds: number[] | undefined, query?: string): Promise<ParameterValues> {
    if (parameter.values_source_type === 'static-list') return staticList(parameter, query);
    if (parameter.values_source_type === 'card') return this.fromCard(caller, cardSource(parameter.values_source_config), query);
    if (!fieldIds || fieldIds.length === 0) throw new MessageError('Missing field-ids for parameter');
    const found: FieldInTable[] = [];
    // Every field is checked (404 unknown, 403 unreadable) before any warehouse is read.
    for (const id of [...new Set(fieldIds)]) {
      const f = await this.access.field(caller, id, 'read');
      if (f.field.visibility_type === 'sensitive' && !isAdmin(caller)) throw new ForbiddenError();
      found.push(f);
    }
    let more = false;
    const all: unknown[][] = [];
    const restricts = this.rowSecurity?.restrictor(caller) ?? (async () => false);
    for (const f of found) {
      const part = await this.ofField(caller, f, query, restricts);
      more ||= part.has_more_values;
      all.push(...part.values);
    }
    const merged = sortValues(dedupe(all));
    return { values: merged.slice(0, PARAMETER_VALUES_MAX), has_more_values: more || merged.length > PARAMETER_VALUES_MAX };
  }

  /**
   * The values of a column of a card's results, in the card's database, as the query processor answers them: the
   * caller must be allowed to read the card (404 when it does not exist, as for an unknown field) and to query its
   * database; for a shared object's grant the source card is part of the object's own configuration, read as its runs
   * read the cards they use. The order is the breakout's (ascending); with labels, the first label of each value is kept.
   */
  private async fromCard(caller: Reader, source: CardValuesSource, query: string | undefined): Promise<ParameterValues> {
    const card = await this.content.resolverFor(caller).card(source.cardId);
    if (!card) throw new NotFoundError();
    const mbql = cardValuesQuery(card.databaseId, source, PARAMETER_VALUES_MAX, query);
    const result = await this.dataset.run(mbql, caller, AbortSignal.timeout(LOOKUP_TIMEOUT_MS), { log: false });
    // The card's query, or the value field in it, is broken: the caller's to fix, as for a live field look-up.
    if (result.status !== 'completed') throw new MessageError(result.error, 400);
    const rows = result.data.rows;
    return { values: dedupe(rows.slice(0, PARAMETER_VALUES_MAX)), has_more_values: rows.length > PARAMETER_VALUES_MAX };
  }

  private async ofField(
    caller: Reader,
    f: FieldInTable,
    query: string | undefined,
    restricts: (dbId: number, tableId: number) => Promise<boolean>,
  ): Promise<ParameterValues> {
    if (hasListValues(f.field)) {
      const stored = await this.fieldValues.values(caller, f.field.id);
      const pairs = stored.values;
      // A complete stored list answers searches too; a truncated one would miss values, so those search live.
      if (query === undefined) return { values: pairs, has_more_values: stored.has_more_values };
      if (!stored.has_more_values) return { values: pairs.filter((p) => p.some((v) => matches(v, query))), has_more_values: false };
    }
    if (NOT_COMPARABLE.has(f.field.base_type)) return { values: [], has_more_values: false };
    // A caller restricted by a row policy (or impersonation) reads the values of their rows, through the engine.
    if (await restricts(f.db.id, f.field.table_id)) {
      const q = distinctQuery(f.db.id, f.field.table_id, f.field.id, PARAMETER_VALUES_MAX, query);
      const rows = await this.lookups.rows(caller, q, PARAMETER_VALUES_MAX + 1);
      return { values: rows.slice(0, PARAMETER_VALUES_MAX).map((r) => [r[0]]), has_more_values: rows.length > PARAMETER_VALUES_MAX };
    }
    // A live look-up; a WarehouseError is answered by the exception filter.
    const driver = this.connections.driverFor(f.db);
    const sql = distinctValuesSql(driver.engine, f.table, f.field, query !== undefined);
    const params = query !== undefined ? [containsPattern(query)] : [];
    const rows = (await driver.query(sql, params, { readOnly: true, timeoutMs: LOOKUP_TIMEOUT_MS, maxRows: PARAMETER_VALUES_MAX + 1 }))
      .rows;
    return { values: rows.slice(0, PARAMETER_VALUES_MAX).map((r) => [r[0]]), has_more_values: rows.length > PARAMETER_VALUES_MAX };
  }
}

function staticList(parameter: ParameterLike, query: string | undefined): ParameterValues {
  const raw = parameter.values_source_config?.values;
  const list = Array.isArray(raw) ? raw.map((v) => (Array.isArray(v) ? v : [v])) : [];
  const hits = query === undefined ? list : list.filter((p) => p.some((v) => matches(v, query)));
  return { values: hits.slice(0, PARAMETER_VALUES_MAX), has_more_values: hits.length > PARAMETER_VALUES_MAX };
}

/** `values_source_config` of a card source: `{card_id, value_field, label_field?}`, field refs as in MBQL. */
function cardSource(config: unknown): CardValuesSource {
  const c = (config && typeof config === 'object' && !Array.isArray(config) ? config : {}) as Record<string, unknown>;
  const cardId = c.card_id;
  if (typeof cardId !== 'number' || !Number.isInteger(cardId) || cardId <= 0) {
    throw invalidConfig('card_id', 'an integer greater than zero', cardId);
  }
  const refWhy = 'a field reference such as ["field", 12, null] or ["field", "NAME", {"base-type": "type/Text"}]';
  if (!isFieldRef(c.value_field)) throw invalidConfig('value_field', refWhy, c.value_field);
  if (c.label_field !== undefined && c.label_field !== null && !isFieldRef(c.label_field))
    throw invalidConfig('label_field', refWhy, c.label_field);
  return { cardId, valueField: c.value_field, labelField: (c.label_field as FieldRef | null | undefined) ?? undefined };
}

function isFieldRef(v: unknown): v is FieldRef {
  if (!Array.isArray(v) || v[0] !== 'field' || v.length < 2 || v.length > 3) return false;
  const [, idOrName, opts] = v as unknown[];
  const target =
    (typeof idOrName === 'number' && Number.isInteger(idOrName) && idOrName > 0) || (typeof idOrName === 'string' && idOrName !== '');
  return target && (opts === undefined || opts === null || (typeof opts === 'object' && !Array.isArray(opts)));
}

/** 400 on `parameter`, naming the key of `values_source_config` at fault. */
function invalidConfig(key: string, what: string, received: unknown): ValidationError {
  const why = `values_source_config.${key} must be ${what}.`;
  return new ValidationError({ parameter: why }, { parameter: [describeReceived(why, received)] });
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
