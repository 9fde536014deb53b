import { isa } from '../fields';
import { bindDimensions, type Candidate } from './field-matching';
import type { BreakoutSpec, CardSpec, Template } from './template.types';
import type { XCard, XField, XRoot } from './xray.types';

/** `["field", id | name, opts]`: by id for a table's field (through its foreign key when linked), by name for a question's column. */
export function fieldRef(f: XField, opts: Record<string, unknown> = {}): unknown[] {
  if (f.id === null) return ['field', f.name, { 'base-type': f.baseType, ...opts }];
  const all = f.via !== null ? { 'source-field': f.via, ...opts } : opts;
  return ['field', f.id, Object.keys(all).length ? all : null];
}

/** Both filters (either may be absent). */
export function andFilters(a: unknown[] | null | undefined, b: unknown[] | null | undefined): unknown[] | null {
  if (a && b) return ['and', a, b];
  return a ?? b ?? null;
}

/** `{{Dim}}`, `{{source}}` and `{{table}}` in a template text. */
export function fillTitle(text: string, root: XRoot, chosen: Map<string, XField>): string {
  return text.replace(/\{\{([^}]+)\}\}/g, (_, name: string) => {
    if (name === 'source') return root.sourceName;
    if (name === 'table') return root.tableName;
    return chosen.get(name)?.displayName ?? name;
  });
}

/** The dimensions a card spec refers to, in its aggregation, breakout and filter. */
export function dimsOf(spec: CardSpec): string[] {
  const dims = new Set<string>();
  for (const a of spec.aggregation) for (const arg of a.slice(1)) if (typeof arg === 'string') dims.add(arg);
  for (const b of spec.breakout ?? []) dims.add(b.dim);
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object' && typeof (n as { dim?: unknown }).dim === 'string') dims.add((n as { dim: string }).dim);
  };
  walk(spec.filter);
  return [...dims];
}

/** The dimension an `each` card varies: its first breakout's, else its aggregated one. */
function eachDim(spec: CardSpec): string | undefined {
  return (
    spec.breakout?.[0]?.dim ??
    (spec.aggregation.flat().find((x) => typeof x === 'string' && x !== spec.aggregation[0][0]) as string | undefined)
  );
}

function breakoutRef(b: BreakoutSpec, f: XField): unknown[] | null {
  if (b.binning) return f.binnable ? fieldRef(f, { binning: { strategy: 'default' } }) : null;
  if (b.unit) return isa(f.baseType, 'type/Temporal') ? fieldRef(f, { 'temporal-unit': b.unit }) : null;
  return fieldRef(f);
}

function substitute(node: unknown, chosen: Map<string, XField>): unknown {
  if (Array.isArray(node)) return node.map((n) => substitute(n, chosen));
  if (node && typeof node === 'object' && typeof (node as { dim?: unknown }).dim === 'string')
    return fieldRef(chosen.get((node as { dim: string }).dim) as XField);
  return node;
}

/** One card of a spec with its fields chosen, or null when the spec cannot be made from them. */
function makeCard(root: XRoot, spec: CardSpec, section: number, chosen: Map<string, XField>, key: string, score: number): XCard | null {
  const aggregation: unknown[] = [];
  for (const a of spec.aggregation) {
    if (a[0] === 'metric') {
      if (!root.metric) return null;
      aggregation.push(root.metric);
    } else aggregation.push([a[0], ...a.slice(1).map((arg) => (typeof arg === 'string' ? fieldRef(chosen.get(arg) as XField) : arg))]);
  }
  const breakout: unknown[] = [];
  for (const b of spec.breakout ?? []) {
    const f = chosen.get(b.dim) as XField;
    if (spec.requires_time && !isa(f.baseType, 'type/DateTime')) return null;
    const ref = breakoutRef(b, f);
    if (!ref) return null;
    breakout.push(ref);
  }
  if (new Set(breakout.map((r) => JSON.stringify((r as unknown[]).slice(0, 2)))).size < breakout.length) return null;
  const query: Record<string, unknown> = { 'source-table': root.sourceTable, aggregation };
  if (breakout.length) query.breakout = breakout;
  const filter = andFilters(root.filter, spec.filter ? (substitute(spec.filter, chosen) as unknown[]) : null);
  if (filter) query.filter = filter;
  if (spec.order && breakout.length) query['order-by'] = [[spec.order, ['aggregation', 0]]];
  if (spec.limit) query.limit = spec.limit;
  const tableIds = new Set<number>();
  if (root.tableId !== null) tableIds.add(root.tableId);
  for (const f of chosen.values()) if (f.tableId !== null) tableIds.add(f.tableId);
  const settings: Record<string, unknown> = { ...(spec.settings ?? {}) };
  if (breakout.length && spec.display !== 'scalar') {
    const dims = (spec.breakout ?? []).map((b) => (chosen.get(b.dim) as XField).name);
    settings['graph.dimensions'] = dims;
  }
  return {
    key,
    section,
    title: fillTitle(spec.title, root, chosen),
    display: spec.display,
    score,
    datasetQuery: { database: root.databaseId, type: 'query', query },
    settings,
    tableIds: [...tableIds],
  };
}

/**
 * The cards of a template for a root: each card spec whose dimensions all find a field gets the best-scoring field of
 * each (`each` cards one card per candidate, up to the number it says). Fields of tables the caller may not query are
 * no candidates, so a card needing such a table is left out. Pure: the same root and template give the same cards.
 */
export function buildCards(root: XRoot, template: Template, mayQuery: (tableId: number) => boolean): XCard[] {
  const usable = root.fields.filter((f) => f.tableId === null || mayQuery(f.tableId));
  const bound = bindDimensions(template, usable, root.field);
  const cards: XCard[] = [];
  const seen = new Set<string>();
  template.sections.forEach((section, si) => {
    for (const spec of section.cards) {
      const dims = dimsOf(spec);
      if (dims.some((d) => (bound.get(d)?.length ?? 0) === 0)) continue;
      const varied = spec.each ? eachDim(spec) : undefined;
      const options: Candidate[] = varied
        ? (bound.get(varied) as Candidate[]).slice(0, spec.each)
        : [bound.get(dims[0] ?? '')?.[0] ?? { field: null as unknown as XField, score: 0 }];
      options.forEach((option, i) => {
        const chosen = new Map<string, XField>();
        for (const d of dims) chosen.set(d, d === varied ? option.field : (bound.get(d) as Candidate[])[0].field);
        const key = varied ? `${spec.id}:${option.field.id ?? option.field.name}:${option.field.via ?? ''}` : spec.id;
        const card = makeCard(root, spec, si, chosen, key, spec.score - i * 5);
        if (!card || card.tableIds.some((t) => !mayQuery(t))) return;
        const sig = JSON.stringify(card.datasetQuery.query);
        if (seen.has(sig)) return;
        seen.add(sig);
        cards.push(card);
      });
    }
  });
  return cards;
}
