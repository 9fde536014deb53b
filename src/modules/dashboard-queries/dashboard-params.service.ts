import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { CardAccessService } from '../cards/card-access.service';
import { targetField } from '../cards/card-params.service';
import type { DashboardParameter, ReadableDashboard } from '../dashboards/dashboard-model';
import { DashboardsService } from '../dashboards/dashboards.service';
import { DatasetService } from '../dataset/dataset.service';
import { PARAMETER_VALUES_MAX, ParameterValuesService, type ParameterLike, type ParameterValues } from '../dataset/parameter-values.service';
import { MetadataAccess } from '../fields/metadata-access.service';
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
 * engine with the caller's permissions.
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
  ) {}

  async valuesOf(caller: AuthUser, dashboardId: number, paramKey: string, given: Record<string, unknown>, search?: string): Promise<ParameterValues> {
    const found = await this.dashboards.readable(caller, dashboardId);
    const params = found.dashboard.parameters_list;
    const param = params.find((p) => p && p.id === paramKey);
    if (!param) throw new MessageError(`Dashboard ${dashboardId} does not have a parameter with the ID "${paramKey}".`);
    const like = param as unknown as ParameterLike;
    if (param.values_query_type === 'none') return { values: [], has_more_values: false };
    if (like.values_source_type === 'static-list' || like.values_source_type === 'card') return this.values.values(caller, like, undefined, search);
    const fieldIds = await this.mappedFields(caller, found, paramKey);
    if (fieldIds.length === 0) return { values: [], has_more_values: false };
    const constraints = await this.constraints(caller, found, params, paramKey, given);
    if (constraints.length === 0) return this.values.values(caller, like, fieldIds, search);
    return this.chained(caller, fieldIds, constraints, search);
  }

  /** For each filtered field, the filtering fields that an FK path (or the same table) connects it to. */
  async validFilterFields(caller: AuthUser, filtered: number[], filtering: number[]): Promise<Record<string, number[]>> {
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
  private async mappedFields(caller: AuthUser, found: ReadableDashboard, paramKey: string): Promise<number[]> {
    const ids = new Set<number>();
    for (const dc of found.dashcards) {
      for (const m of dc.parameter_mappings) {
        if (m.parameter_id !== paramKey) continue;
        const cardId = m.card_id ?? dc.card_id;
        if (typeof cardId !== 'number') continue;
        const card = await this.cardAccess.readable(caller, cardId).catch((e: unknown) => {
          if (e instanceof ForbiddenError || e instanceof NotFoundError) return null;
          throw e;
        });
        if (!card) continue;
        const id = targetField(m.target, parseQuery(card.row.dataset_query)) ?? columnField(m.target, card.row.result_metadata);
        if (id !== null) ids.add(id);
      }
    }
    return [...ids];
  }

  /** The other parameters given a value in the query string, as constraints on each field they are mapped to. */
  private async constraints(caller: AuthUser, found: ReadableDashboard, params: DashboardParameter[], paramKey: string, given: Record<string, unknown>): Promise<Constraint[]> {
    const out: Constraint[] = [];
    for (const p of params) {
      if (p.id === paramKey || !(p.id in given) || !hasValue(given[p.id])) continue;
      const fields = await this.mappedFields(caller, found, p.id);
      for (const place of await this.repo.places(fields)) out.push({ fieldId: place.id, tableId: place.table_id, type: typeof p.type === 'string' ? p.type : 'category', value: given[p.id] });
    }
    return out;
  }

  private async chained(caller: AuthUser, fieldIds: number[], constraints: Constraint[], search?: string): Promise<ParameterValues> {
    // As for unconstrained values: each field checked (404 unknown, 403 unreadable or sensitive) before any warehouse is read.
    for (const id of fieldIds) {
      const f = await this.metadata.field(caller, id, 'read');
      if (f.field.visibility_type === 'sensitive' && !caller.isSuperuser) throw new ForbiddenError();
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

  private async distinct(caller: AuthUser, f: FieldPlace, constraints: Array<Constraint & { path: ReturnType<typeof findPath> & object }>, search?: string): Promise<unknown[][]> {
    const query = chainFilterQuery(f.db_id, f, constraints, PARAMETER_VALUES_MAX, search);
    const result = await this.dataset.run(query, caller, AbortSignal.timeout(LOOKUP_TIMEOUT_MS), { log: false, defaultMaxRows: PARAMETER_VALUES_MAX + 1 });
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
