import type { XFieldRow, XTableRow, XField } from './xray.types';

const HIDDEN = ['retired', 'hidden', 'sensitive', 'details-only'];
/** Never an x-ray's subject, dimension or metric, for anyone (Metabase's x-rays leave them out too). */
export const UNUSABLE_VISIBILITY = ['sensitive', 'retired'];

export const isUnusable = (visibility: string | null) => visibility !== null && UNUSABLE_VISIBILITY.includes(visibility);

interface Fingerprint {
  global?: { 'distinct-count'?: number };
  type?: { 'type/Number'?: { min?: unknown; max?: unknown } };
}

/** A table's field as the builder sees it (`via`: the foreign key it is reached through, for a linked table's). */
export function xField(r: XFieldRow, via: number | null = null): XField {
  const fp = (typeof r.fingerprint === 'string' ? safeJson(r.fingerprint) : r.fingerprint) as Fingerprint | null;
  const num = fp?.type?.['type/Number'];
  return {
    id: r.id,
    name: r.name,
    displayName: r.display_name,
    baseType: r.effective_type ?? r.base_type,
    semanticType: r.semantic_type,
    tableId: r.table_id,
    position: r.position,
    via,
    distinct: typeof fp?.global?.['distinct-count'] === 'number' ? fp.global['distinct-count'] : null,
    binnable: typeof num?.min === 'number' && typeof num?.max === 'number',
    hidden: HIDDEN.includes(r.visibility_type),
  };
}

/** A saved question's result column (referred to by name in queries on `card__<id>`). */
export function columnField(c: Record<string, unknown>, position: number): XField {
  return {
    id: null,
    name: String(c.name),
    displayName: String(c.display_name ?? c.name),
    baseType: String(c.effective_type ?? c.base_type ?? 'type/*'),
    semanticType: typeof c.semantic_type === 'string' ? c.semantic_type : null,
    tableId: null,
    position,
    via: null,
    distinct: null,
    binnable: false,
    hidden: c.visibility_type === 'sensitive',
  };
}

/**
 * The fields of a table and of the tables its foreign keys point at. `all` holds the fields of every table involved
 * (the table's own and the targets'); a linked field keeps its own position after all own fields.
 */
export function tableFields(table: XTableRow, all: XFieldRow[]): XField[] {
  const own = all.filter((f) => f.table_id === table.id);
  const byId = new Map(all.map((f) => [f.id, f]));
  const out = own.map((f) => xField(f));
  const offset = own.length + 1;
  for (const fk of own) {
    if (fk.fk_target_field_id === null || fk.semantic_type !== 'type/FK') continue;
    const target = byId.get(fk.fk_target_field_id);
    if (!target || target.table_id === table.id) continue;
    for (const f of all.filter((x) => x.table_id === target.table_id)) out.push({ ...xField(f, fk.id), position: offset + f.position });
  }
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
