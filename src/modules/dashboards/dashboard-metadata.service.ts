import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ApiError } from '../../common/errors/api-errors';
import { CardsRepository, deriveQuery, legacyQuery } from '../cards';
import { type CardRow } from '../../schema/card.rows';
import { DatasetMetadataService } from '../dataset';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { parseJson } from '../../common/database/stored-json';
import { DashboardLayoutCache } from './dashboard-layout.cache';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardVirtualTables } from './dashboard-virtual-tables';

async function unlessRefused<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError && [400, 403, 404].includes(e.status)) return null;
    throw e;
  }
}

interface Wanted {
  tables: Set<number>;
  tagFields: Set<number>;
}

/** Tables of `source-table` at any level and fields of native field filters, in a legacy query. */
function collect(node: unknown, w: Wanted, inTag: boolean): void {
  if (Array.isArray(node)) {
    if (inTag && node[0] === 'field' && typeof node[1] === 'number') w.tagFields.add(node[1]);
    node.forEach((n) => collect(n, w, inTag));
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'source-table' && typeof v === 'number') w.tables.add(v);
      else collect(v, w, inTag || k === 'template-tags');
    }
  }
}

type Answer = { databases: Array<{ id: number }>; tables: Array<{ id: number | string }>; fields: Array<{ id: number }> };

/**
 * GET /api/dashboard/:id/query_metadata: what a client needs to draw the dashboard, in one answer: the databases,
 * tables and fields of every readable dashcard's query (and series), the virtual tables of the models and saved
 * questions they are built on, and the cards and dashboards its link cards point at. The queries of all dashcards
 * are merged per database into one metadata lookup and the virtual tables are built in one batch, so the cost grows
 * neither with the number of dashcards nor with the number of models they use.
 */
@Injectable()
export class DashboardMetadataService {
  constructor(
    private readonly access: DashboardAccessService,
    private readonly repo: DashboardsRepository,
    private readonly layouts: DashboardLayoutCache,
    private readonly cards: CardsRepository,
    private readonly hydrator: DashboardHydrator,
    private readonly datasetMetadata: DatasetMetadataService,
    private readonly virtualTables: DashboardVirtualTables,
  ) {}

  async queryMetadata(caller: AuthUser, id: number) {
    await this.access.readable(caller, id);
    const { dashcards, series } = await this.layouts.of(id);
    const links = { cards: new Set<number>(), dashboards: new Set<number>() };
    for (const dc of dashcards) {
      const entity = (
        parseJson<Record<string, unknown>>(dc.visualization_settings, {}).link as { entity?: { id?: unknown; model?: unknown } } | undefined
      )?.entity;
      if (entity && typeof entity.id === 'number') {
        if (entity.model === 'dashboard') links.dashboards.add(entity.id);
        else if (entity.model === 'card' || entity.model === 'dataset' || entity.model === 'metric') links.cards.add(entity.id);
      }
    }
    const cardIds = [
      ...new Set([...dashcards.map((d) => d.card_id), ...series.map((s) => s.card_id), ...links.cards].filter((x) => x !== null)),
    ];
    const rows = cardIds.length ? await this.cards.byIds(cardIds) : [];
    const perm = await this.hydrator.cardPerms(caller, rows);
    const readable = rows.filter((r) => perm(r) !== null);

    const byDb = new Map<number, Wanted>();
    const virtual = new Set<number>();
    for (const r of readable) {
      if (links.cards.has(r.id) && !dashcards.some((d) => d.card_id === r.id) && !series.some((s) => s.card_id === r.id)) continue;
      const sent = parseJson<unknown>(r.dataset_query, null);
      const derived = deriveQuery(sent);
      if (derived.database_id === null) continue;
      const w = byDb.get(derived.database_id) ?? { tables: new Set(), tagFields: new Set() };
      byDb.set(derived.database_id, w);
      collect(legacyQuery(sent), w, false);
      for (const ref of derived.references) if (ref.kind === 'card') virtual.add(ref.ref_id);
      if (r.type !== 'question') virtual.add(r.id);
    }
    const answers: Answer[] = [];
    for (const [dbId, w] of byDb) {
      const tables = [...w.tables];
      const tags = Object.fromEntries(
        [...w.tagFields].map((f, i) => [
          `f${i}`,
          { name: `f${i}`, 'display-name': `f${i}`, type: 'dimension', dimension: ['field', f, null], 'widget-type': 'category' },
        ]),
      );
      const merged: Record<string, unknown> = tables.length
        ? {
            database: dbId,
            type: 'query',
            query: { 'source-table': tables[0], joins: tables.slice(1).map((t, i) => ({ 'source-table': t, alias: `t${i}` })) },
          }
        : { database: dbId, type: 'native', native: { query: 'SELECT 1' } };
      if (w.tagFields.size) merged.native = { query: 'SELECT 1', 'template-tags': tags };
      const got = await unlessRefused(() => this.datasetMetadata.queryMetadata(caller, merged));
      if (got) answers.push(got as unknown as Answer);
    }
    // The virtual tables of every model and source question at once; source cards not on the dashboard in one more query.
    const loaded = new Map(rows.map((r) => [r.id, r]));
    const missing = [...virtual].filter((v) => !loaded.has(v));
    const extra = missing.length ? await this.cards.byIds(missing) : [];
    const extraPerm = extra.length ? await this.hydrator.cardPerms(caller, extra) : perm;
    const virtualRows = [...virtual]
      .map((v) => loaded.get(v) ?? extra.find((r) => r.id === v))
      .filter((r): r is CardRow => r !== undefined);
    const tables = await this.virtualTables.of(caller, virtualRows, (r) => (loaded.has(r.id) ? perm(r) : extraPerm(r)));
    answers.push({ databases: [], tables, fields: [] });
    const linkedDashboards = links.dashboards.size ? await this.linkedDashboards(caller, [...links.dashboards]) : [];
    return {
      databases: uniqueBy(answers.flatMap((a) => a.databases)),
      tables: uniqueBy(answers.flatMap((a) => a.tables)),
      fields: uniqueBy(answers.flatMap((a) => a.fields)),
      cards: readable.filter((r) => links.cards.has(r.id)).map(brief),
      dashboards: linkedDashboards,
      snippets: [],
    };
  }

  /** The dashboards link cards point at that the caller may read: their rows in one query, their collections' permissions in a few. */
  private async linkedDashboards(caller: AuthUser, ids: number[]) {
    const rows = await this.repo.byIds(ids);
    const perm = await this.hydrator.cardPerms(caller, rows);
    return rows
      .filter((r) => perm(r) !== null)
      .map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        collection_id: r.collection_id,
      }));
  }
}

function brief(r: CardRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    display: r.display,
    type: r.type,
    database_id: r.database_id,
    collection_id: r.collection_id,
  };
}

function uniqueBy<T extends { id: unknown }>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const i of items) if (!seen.has(String(i.id))) seen.set(String(i.id), i);
  return [...seen.values()];
}
