import { Injectable } from '@nestjs/common';
import { AutomagicRepository } from './automagic.repository';
import { encodeBase64Json } from './automagic-params';
import type { Resolved, XCard } from './xray.types';
import type { Related, RelatedLink } from './xray-view';

const MAX_ZOOM_IN = 6;

/**
 * The `related` block of an x-ray: zoom in (the fields its cards use, the table's segments), zoom out (the table of a
 * field, segment, metric or question; the entity of a cell), the tables linked both ways, and comparisons. Only tables
 * the caller may query.
 */
@Injectable()
export class RelatedLinks {
  constructor(private readonly repo: AutomagicRepository) {}

  async of(r: Resolved, cards: XCard[], cell: unknown[] | null): Promise<Related> {
    const { root } = r;
    const tableLink = (id: number): RelatedLink | null => {
      const t = r.tables.get(id);
      return t && r.mayQuery(id)
        ? { url: `/auto/dashboard/table/${id}`, title: t.display_name, description: `A look at ${t.display_name}` }
        : null;
    };
    const out: Related = { 'zoom-in': [], 'zoom-out': [], 'linking-to': [], 'linked-from': [], compare: [] };
    if (cell) {
      // The root's URL names the cell: zooming out drops it.
      const entityUrl = root.url.split('/cell/')[0];
      out['zoom-out'].push({ url: entityUrl, title: root.sourceName });
      if (root.tableId !== null)
        out.compare.push({
          url: `${entityUrl}/cell/${encodeBase64Json(cell)}/compare/table/${root.tableId}`,
          title: `Compare with all ${root.tableName}`,
        });
    } else if (root.entity !== 'table' && root.tableId !== null) {
      const t = tableLink(root.tableId);
      if (t) out['zoom-out'].push(t);
      if (root.entity === 'segment')
        out.compare.push({ url: `${root.url}/compare/table/${root.tableId}`, title: `Compare with all ${root.tableName}` });
    }
    if (root.tableId === null) return out;
    const used = new Map<number, { id: number; name: string }>();
    for (const c of cards) {
      for (const id of fieldIdsIn(c.datasetQuery.query.breakout)) {
        const f = root.fields.find((x) => x.id === id && x.via === null);
        if (f && f.id !== root.field?.id) used.set(id, { id, name: f.displayName });
      }
    }
    for (const f of [...used.values()].slice(0, MAX_ZOOM_IN))
      out['zoom-in'].push({ url: `/auto/dashboard/field/${f.id}`, title: f.name, description: `A look at ${f.name}` });
    if (root.entity === 'table' && !cell) {
      for (const s of await this.repo.segmentsOf(root.tableId)) {
        out['zoom-in'].push({ url: `/auto/dashboard/segment/${s.id}`, title: s.name });
        out.compare.push({ url: `${root.url}/compare/segment/${s.id}`, title: `Compare with ${s.name}` });
      }
    }
    for (const id of r.tables.keys()) {
      const t = id === root.tableId ? null : tableLink(id);
      if (t) out['linking-to'].push(t);
    }
    const from = await this.repo.linkingHere(root.tableId);
    const fromTables = await this.repo.tables([...new Set(from.map((x) => x.table_id))]);
    for (const t of fromTables) {
      if (r.mayQuery(root.tableId))
        out['linked-from'].push({
          url: `/auto/dashboard/table/${t.id}`,
          title: t.display_name,
          description: `A look at ${t.display_name}`,
        });
    }
    return out;
  }
}

/** Field ids of `["field", id, ...]` refs anywhere in a clause. */
export function fieldIdsIn(node: unknown, out: number[] = []): number[] {
  if (Array.isArray(node)) {
    if (node[0] === 'field' && typeof node[1] === 'number') out.push(node[1]);
    else node.forEach((n) => fieldIdsIn(n, out));
  }
  return out;
}
