import { Injectable } from '@nestjs/common';
import { isAdmin, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import { CardAccessService, staticListLabel, targetField } from '../cards';
import { dashboardCardIds, type DashboardParameter, DashboardsService, type ReadableDashboard } from '../dashboards';
import { DatasetService, PARAMETER_VALUES_MAX, type ParameterLike, type ParameterValues, ParameterValuesService } from '../dataset';
import { FieldRemappingService, keyParam, MetadataAccess } from '../fields';
import { chainFilterQuery, findPath, type Constraint, type FieldNode } from './chain-filter';
import { DashboardQueriesRepository, type FieldPlace } from './dashboard-queries.repository';
import { hasValue } from './parameter-mapping';

const LOOKUP_TIMEOUT_MS = 60_000;

/**
 * GET /api/dashboard/:id/params/:param-key/values and .../search/:query, and
 * GET /api/dashboard/params/valid-filter-fields. A parameter's values are those of every field it is mapped to on
 * the dashboard's cards, merged (ParameterValuesService, as for a card's parameter), or its static list or card
 * source. Other parameters' values given as query parameters narrow them (chain filter): the distinct values of each
 * field are then read through an MBQL query joined along the FK path to each constraining field, run by the query
 * engine with the caller's permissions. A shared dashboard's look-ups come with its grant: it reads that dashboard
 * and the cards on it, and its runs are the dashboard's (no user's permissions, never an admin's).
 */
@Injectable()
export class DashboardParamsService {
  constructor(
    private readonly dashboards: DashboardsService,
    private readonly cardAccess: CardAccessService,
    private readonly values: ParameterValuesService,
    private readonly dataset: DatasetService,
    private readonly metadata: MetadataAccess,
    private readonly repo: DashboardQueriesRepository,
    private readonly remapping: FieldRemappingService,
  ) {}

  async valuesOf(
    caller: Reader,
    dashboardId: number,
    paramKey: string,
    given: Record<string, unknown>,
    search?: string,
  ): Promise<ParameterValues> {
    const found = await this.dashboards.readable(caller, dashboardId);
    const params = found.dashboard.parameters_list;
    const param = params.find((p) => p && p.id === paramKey);
    if (!param) throw new MessageError(`Dashboard ${dashboardId} does not have a parameter with the ID "${paramKey}".`);
    const like = param as unknown as ParameterLike;
    if (param.values_query_type === 'none') return { values: [], has_more_values: false };
    if (like.values_source_type === 'static-list' || like.values_source_type === 'card')
      return this.values.values(caller, like, undefined, search);
    const cards = await this.mappedCards(caller, found);
    const fieldIds = this.mappedFields(cards, found, paramKey);
    if (fieldIds.length === 0) return { values: [], has_more_values: false };
    const constraints = await this.constraints(cards, found, params, paramKey, given);
    if (constraints.length === 0) return this.values.values(caller, like, fieldIds, search);
    return this.chained(caller, fieldIds, constraints, search);
  }

  /**
   * GET /api/dashboard/:id/params/:param-key/remapping?value=...: `[value, display]` or `[value]` (Metabase's
   * dashboard-param-remapped-value). A static list's label; else, when the parameter's fields are one field, or a
   * primary key and foreign keys to it, the display value of that key (FieldRemappingService). Other parameters'
   * values in `given` (an embed token's) must leave a row with the value, else there is no label to show.
   */
  async remappedValue(
    caller: Reader,
    dashboardId: number,
    paramKey: string,
    value: string,
    given: Record<string, unknown> = {},
  ): Promise<unknown[]> {
    const found = await this.dashboards.readable(caller, dashboardId);
    const params = found.dashboard.parameters_list;
    const param = params.find((p) => p && p.id === paramKey);
    if (!param) throw new MessageError(`Dashboard ${dashboardId} does not have a parameter with the ID "${paramKey}".`);
    if (paramKey in given) throw new MessageError('Getting the remapped value for a constrained parameter is not supported');
    const like = param as unknown as ParameterLike;
    if (like.values_source_type === 'static-list') return staticListLabel(like, value);
    if (like.values_source_type === 'card') return [value];
    const cards = await this.mappedCards(caller, found);
    const key = await this.commonKey(this.mappedFields(cards, found, paramKey));
    if (key === null) return [value];
    const constraints = await this.constraints(cards, found, params, paramKey, given);
    if (constraints.length > 0 && !(await this.occursUnder(caller, key, value, constraints))) return [value];
    return this.remapping.remappedValue(caller, key, value);
  }

  /**
   * Whether `value` of the field occurs among the rows the constraints leave (a chain filter with an equality on the
   * field itself). A value the field's type cannot take occurs nowhere.
   */
  async occursUnder(caller: Reader, fieldId: number, value: string, given: Array<Omit<Constraint, 'tableId'>>): Promise<boolean> {
    const { field } = await this.metadata.field(caller, fieldId, 'read');
    if (keyParam(field, value) === null) return false;
    const all = [...given, { fieldId, type: 'id', value: [value] }];
    const tables = new Map((await this.repo.places(all.map((c) => c.fieldId))).map((p) => [p.id, p.table_id]));
    const constraints = all.flatMap((c) => (tables.has(c.fieldId) ? [{ ...c, tableId: tables.get(c.fieldId) as number }] : []));
    return (await this.chained(caller, [fieldId], constraints)).values.length > 0;
  }

  /** The parameter's fields as the one field whose key they share: a single field, or FKs to one primary key (with it or not). */
  private async commonKey(fieldIds: number[]): Promise<number | null> {
    if (fieldIds.length <= 1) return fieldIds[0] ?? null;
    const places = await this.repo.places(fieldIds);
    if (places.length !== fieldIds.length) return null;
    const keys = new Set(places.map((p) => p.fk_target_field_id ?? p.id));
    return keys.size === 1 ? [...keys][0] : null;
  }

  /** For each filtered field, the filtering fields that an FK path (or the same table) connects it to. */
  async validFilterFields(caller: Reader, filtered: number[], filtering: number[]): Promise<Record<string, number[]>> {
    for (const id of new Set([...filtered, ...filtering])) await this.metadata.field(caller, id, 'read');
    const places = new Map((await this.repo.places([...new Set([...filtered, ...filtering])])).map((p) => [p.id, p]));
    const graphs = new Map<number, FieldNode[]>();
    const out: Record<string, number[]> = {};
    for (const id of filtered) {
      const f = places.get(id);
      out[String(id)] = [];
      if (!f) continue;
      const graph = await this.graph(graphs, f.db_id);
      out[String(id)] = filtering.filter((o) => {
        const g = places.get(o);
        return o !== id && g !== undefined && g.db_id === f.db_id && findPath(graph, f.table_id, g.table_id) !== null;
      });
    }
    return out;
  }

  /** The fields the parameter is mapped to on the dashboard's cards that the caller may read (field ids, or field filter tags). */
  private mappedFields(cards: ReadonlyMap<number, CardRow>, found: ReadableDashboard, paramKey: string): number[] {
    const ids = new Set<number>();
    for (const dc of found.dashcards) {
      for (const m of dc.parameter_mappings) {
        if (m.parameter_id !== paramKey) continue;
        const cardId = m.card_id ?? dc.card_id;
        const card = typeof cardId === 'number' ? cards.get(cardId) : undefined;
        if (!card) continue;
        const id = targetField(m.target, parseQuery(card.dataset_query)) ?? columnField(m.target, card.result_metadata);
        if (id !== null) ids.add(id);
      }
    }
    return [...ids];
  }

  /** The cards the dashboard's parameter mappings name that the caller may read, by id, in one look-up whatever their number. */
  private mappedCards(caller: Reader, found: ReadableDashboard): Promise<Map<number, CardRow>> {
    const ids = found.dashcards.flatMap((dc) =>
      dc.parameter_mappings.map((m) => m.card_id ?? dc.card_id).filter((id): id is number => typeof id === 'number'),
    );
    return this.cardAccess.readableMany(caller, ids, { id: found.dashboard.id, cardIds: new Set(dashboardCardIds(found)) });
  }

  /** The other parameters given a value in the query string, as constraints on each field they are mapped to. */
  private async constraints(
    cards: ReadonlyMap<number, CardRow>,
    found: ReadableDashboard,
    params: DashboardParameter[],
    paramKey: string,
    given: Record<string, unknown>,
  ): Promise<Constraint[]> {
    const out: Constraint[] = [];
    for (const p of params) {
      if (p.id === paramKey || !(p.id in given) || !hasValue(given[p.id])) continue;
      const fields = this.mappedFields(cards, found, p.id);
      for (const place of await this.repo.places(fields))
        out.push({
          fieldId: place.id,
          tableId: place.table_id,
          type: typeof p.type === 'string' ? p.type : 'category',
          value: given[p.id],
        });
    }
    return out;
  }

  private async chained(caller: Reader, fieldIds: number[], constraints: Constraint[], search?: string): Promise<ParameterValues> {
    // As for unconstrained values: each field checked (404 unknown, 403 unreadable or sensitive) before any warehouse is read.
    for (const id of fieldIds) {
      const f = await this.metadata.field(caller, id, 'read');
      if (f.field.visibility_type === 'sensitive' && !isAdmin(caller)) throw new ForbiddenError();
    }
    const places = await this.repo.places(fieldIds);
    const graphs = new Map<number, FieldNode[]>();
    const constrainedBy = new Map(constraints.map((c) => [c.fieldId, c]));
    const dbOf = new Map((await this.repo.places([...constrainedBy.keys()])).map((p) => [p.id, p.db_id]));
    const seen = new Set<string>();
    const all: unknown[][] = [];
    let more = false;
    for (const f of places) {
      const graph = await this.graph(graphs, f.db_id);
      const usable = constraints
        .filter((c) => dbOf.get(c.fieldId) === f.db_id)
        .map((c) => ({ ...c, path: findPath(graph, f.table_id, c.tableId) }))
        .filter((c): c is Constraint & { path: NonNullable<ReturnType<typeof findPath>> } => c.path !== null);
      const rows = await this.distinct(caller, f, usable, search);
      more ||= rows.length > PARAMETER_VALUES_MAX;
      for (const r of rows.slice(0, PARAMETER_VALUES_MAX)) {
        const key = JSON.stringify(r[0] ?? null);
        if (seen.has(key)) continue;
        seen.add(key);
        all.push([r[0]]);
      }
    }
    if (places.length > 1) all.sort((a, b) => compare(a[0], b[0]));
    return { values: all.slice(0, PARAMETER_VALUES_MAX), has_more_values: more || all.length > PARAMETER_VALUES_MAX };
  }

  private async distinct(
    caller: Reader,
    f: FieldPlace,
    constraints: Array<Constraint & { path: ReturnType<typeof findPath> & object }>,
    search?: string,
  ): Promise<unknown[][]> {
    const query = chainFilterQuery(f.db_id, f, constraints, PARAMETER_VALUES_MAX, search);
    const result = await this.dataset.run(query, caller, AbortSignal.timeout(LOOKUP_TIMEOUT_MS), {
      log: false,
      defaultMaxRows: PARAMETER_VALUES_MAX + 1,
    });
    // A constraint value the field's type cannot take (a word for a number) is the caller's to fix.
    if (result.status !== 'completed') throw new MessageError(result.error, 400);
    return result.data.rows;
  }

  private async graph(cache: Map<number, FieldNode[]>, dbId: number): Promise<FieldNode[]> {
    let g = cache.get(dbId);
    if (!g) cache.set(dbId, (g = await this.repo.fkGraph(dbId)));
    return g;
  }
}

/** A column of a model or question named by `["dimension", ["field", "NAME", opts]]`: the field its result metadata says it comes from. */
export function columnField(target: unknown, metadata: string | null): number | null {
  if (!Array.isArray(target) || target[0] !== 'dimension' || !Array.isArray(target[1])) return null;
  const [kind, name] = target[1] as unknown[];
  if (kind !== 'field' || typeof name !== 'string') return null;
  const cols = parseQuery(metadata);
  const col = Array.isArray(cols) ? (cols as Array<{ name?: unknown; id?: unknown }>).find((c) => c && c.name === name) : undefined;
  return typeof col?.id === 'number' && Number.isInteger(col.id) ? col.id : null;
}

function parseQuery(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function compare(x: unknown, y: unknown): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'number' ? 1 : 2);
  const r = rank(x) - rank(y);
  if (r !== 0) return r;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const [s, t] = [String(x), String(y)];
  return s < t ? -1 : s > t ? 1 : 0;
}
