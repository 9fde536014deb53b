import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { CardAccessService, legacyQuery } from '../cards';
import type { CardRow } from '../../schema/card.rows';
import { accessIn, DatabaseAccessService } from '../warehouse';
import { AutomagicRepository } from './automagic.repository';
import { type XTableRow } from './xray.types';
import { andFilters } from './card-builder';
import { parseBase64Json, parseId, type Entity } from './automagic-params';
import { fieldIdsIn } from './related-links';
import { columnField, isUnusable, tableFields, xField } from './xray-fields';
import type { Resolved, XRoot } from './xray.types';

/** A resolved entity: the root, which templates apply to it, and what the caller may query. */
const BASE64_JSON = "value couldn't be parsed as base64 encoded JSON";

/** Turns `:entity/:entity-id-or-query` into the root of an x-ray, checking the caller may read and query it. */
@Injectable()
export class RootResolver {
  constructor(
    private readonly repo: AutomagicRepository,
    private readonly access: DatabaseAccessService,
    private readonly cards: CardAccessService,
  ) {}

  async resolve(caller: AuthUser, entity: Entity, idOrQuery: string): Promise<Resolved> {
    switch (entity) {
      case 'table':
        return this.table(caller, parseId('entity-id-or-query', idOrQuery));
      case 'field':
        return this.field(caller, parseId('entity-id-or-query', idOrQuery));
      case 'segment':
      case 'metric':
        return this.segmentOrMetric(caller, entity, parseId('entity-id-or-query', idOrQuery));
      case 'question':
      case 'model':
        return this.card(caller, entity, parseId('entity-id-or-query', idOrQuery));
      case 'adhoc':
        return this.adhoc(caller, idOrQuery);
    }
  }

  /** What the caller may query: tables they may view (view-data) of databases where their data access is unrestricted. */
  async predicate(caller: AuthUser, tables: Map<number, XTableRow>): Promise<(tableId: number) => boolean> {
    const map = await this.access.accessMap(caller);
    const viewable = new Set((await this.access.viewableTables(caller, [...tables.values()])).map((t) => t.id));
    return (tableId) => {
      const t = tables.get(tableId);
      return t !== undefined && viewable.has(tableId) && accessIn(map, t.db_id).data === 'unrestricted';
    };
  }

  async table(caller: AuthUser, id: number, overrides: Partial<XRoot> = {}): Promise<Resolved> {
    const table = await this.repo.table(id);
    if (!table) throw new NotFoundError();
    const own = await this.repo.fieldsOf([table.id]);
    const targets = await this.repo.fieldsByIds(own.map((f) => f.fk_target_field_id).filter((x): x is number => x !== null));
    const linkedIds = [...new Set(targets.map((f) => f.table_id))].filter((t) => t !== table.id);
    const linkedTables = await this.repo.tables(linkedIds);
    const all = [...own, ...(await this.repo.fieldsOf(linkedTables.map((t) => t.id)))];
    const tables = new Map<number, XTableRow>([[table.id, table], ...linkedTables.map((t) => [t.id, t] as const)]);
    const mayQuery = await this.predicate(caller, tables);
    if (!mayQuery(table.id)) throw new ForbiddenError();
    const root: XRoot = {
      entity: 'table',
      entityId: String(table.id),
      url: `/auto/dashboard/table/${table.id}`,
      sourceName: table.display_name,
      tableName: table.display_name,
      databaseId: table.db_id,
      tableId: table.id,
      sourceTable: table.id,
      filter: null,
      fields: tableFields(table, all),
      ...overrides,
    };
    return { root, prefix: 'table', tables, mayQuery };
  }

  /** A sensitive or retired field is no subject: answered as an unknown field, so neither its name nor its existence shows. */
  private async field(caller: AuthUser, id: number): Promise<Resolved> {
    const f = await this.repo.field(id);
    if (!f || isUnusable(f.visibility_type)) throw new NotFoundError();
    const r = await this.table(caller, f.table_id, {
      entity: 'field',
      entityId: String(id),
      url: `/auto/dashboard/field/${id}`,
      field: xField(f),
    });
    return { ...r, prefix: 'field' };
  }

  private async segmentOrMetric(caller: AuthUser, kind: 'segment' | 'metric', id: number): Promise<Resolved> {
    const m = await this.repo.segmentOrMetric(kind, id);
    if (!m || m.archived) throw new NotFoundError();
    const def = JSON.parse(m.definition) as { filter?: unknown[]; aggregation?: unknown[][] };
    const overrides: Partial<XRoot> = {
      entity: kind,
      entityId: String(id),
      url: `/auto/dashboard/${kind}/${id}`,
      sourceName: m.name,
      filter: def.filter ?? null,
    };
    if (kind === 'metric') overrides.metric = def.aggregation?.[0] ?? ['count'];
    const r = await this.table(caller, m.table_id, overrides);
    await this.assertUsableMetric(r.root.metric);
    return { ...r, prefix: kind === 'metric' ? 'metric' : 'table' };
  }

  private async card(caller: AuthUser, entity: 'question' | 'model', id: number): Promise<Resolved> {
    const { row } = await this.cards.readable(caller, id);
    if (row.archived) throw new NotFoundError();
    return this.cardRoot(caller, row, entity);
  }

  /**
   * A question over a table without aggregation is that table filtered as the question says (its cards keep the
   * table's fields and links); a metric card is a metric of its table; anything else is its result, used as the
   * source (`card__<id>`) with its columns by name.
   */
  async cardRoot(caller: AuthUser, row: CardRow, entity: 'question' | 'model'): Promise<Resolved> {
    const q = legacyQuery(JSON.parse(row.dataset_query));
    const inner = q?.type === 'query' ? (q.query as Record<string, unknown>) : null;
    const base: Partial<XRoot> = { entity, entityId: String(row.id), url: `/auto/dashboard/${entity}/${row.id}`, sourceName: row.name };
    const simple = inner && typeof inner['source-table'] === 'number' && !inner.joins && !inner.expressions && !inner['source-query'];
    if (simple && row.type === 'metric' && Array.isArray(inner.aggregation) && !inner.breakout) {
      const r = await this.table(caller, inner['source-table'] as number, {
        ...base,
        filter: (inner.filter as unknown[]) ?? null,
        metric: (inner.aggregation as unknown[][])[0],
      });
      await this.assertUsableMetric(r.root.metric);
      return { ...r, prefix: 'metric' };
    }
    if (simple && entity === 'question' && !inner.aggregation && !inner.breakout) {
      return this.table(caller, inner['source-table'] as number, { ...base, filter: (inner.filter as unknown[]) ?? null });
    }
    if (row.database_id === null) throw new NotFoundError();
    const dbTables = new Map<number, XTableRow>();
    const map = await this.access.accessMap(caller);
    if (accessIn(map, row.database_id).data !== 'unrestricted') throw new ForbiddenError();
    const columns = (JSON.parse(row.result_metadata ?? '[]') as Array<Record<string, unknown>>) ?? [];
    const root: XRoot = {
      entity,
      entityId: String(row.id),
      url: `/auto/dashboard/${entity}/${row.id}`,
      sourceName: row.name,
      tableName: row.name,
      databaseId: row.database_id,
      tableId: null,
      sourceTable: `card__${row.id}`,
      filter: null,
      fields: columns.map(columnField),
    };
    return { root, prefix: 'table', tables: dbTables, mayQuery: () => false };
  }

  /**
   * A metric every card of its x-ray aggregates: one over a sensitive or retired field is refused as an unknown
   * entity (its cards would show the field's name and ask for its values).
   */
  private async assertUsableMetric(aggregation: unknown[] | undefined): Promise<void> {
    if ((await this.repo.unusableFieldIds([...new Set(fieldIdsIn(aggregation))])).length) throw new NotFoundError();
  }

  /** `:entity-id-or-query` of `adhoc`: base64 of a dataset query over a table or saved question; its filter is kept. */
  async adhoc(caller: AuthUser, encoded: string): Promise<Resolved> {
    const sent = parseBase64Json('entity-id-or-query', encoded) as Record<string, unknown>;
    const q = legacyQuery(sent);
    if (!q || q.type !== 'query') throw ValidationError.of('entity-id-or-query', BASE64_JSON, encoded);
    const inner = q.query as Record<string, unknown>;
    const source = inner['source-table'];
    const filter = (inner.filter as unknown[]) ?? null;
    const base: Partial<XRoot> = { entity: 'adhoc', entityId: encoded, url: `/auto/dashboard/adhoc/${encoded}` };
    if (typeof source === 'number') {
      const r = await this.table(caller, source, { ...base, filter });
      if (r.root.databaseId !== q.database) throw new NotFoundError();
      return r;
    }
    const m = typeof source === 'string' ? /^card__(\d+)$/.exec(source) : null;
    if (!m) throw ValidationError.of('entity-id-or-query', BASE64_JSON, encoded);
    const { row } = await this.cards.readable(caller, Number(m[1]));
    const r = await this.cardRoot(caller, row, row.type === 'model' ? 'model' : 'question');
    return { ...r, root: { ...r.root, ...base, filter: andFilters(r.root.filter, filter) } };
  }
}
