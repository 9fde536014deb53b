import { createHash } from 'node:crypto';
import { isa } from '../fields';
import { buildCards, fieldRef, fillTitle } from './card-builder';
import { tooVaried } from './field-matching';
import type { Template } from './template.types';
import type { XCard, XField, XParameter, XRoot } from './xray.types';

/** Cards an x-ray shows without `show` (Metabase's default). */
export const DEFAULT_MAX_CARDS = 15;
const GRID_WIDTH = 24;
const MAX_CATEGORY_FILTERS = 2;

export type Show = number | 'all' | null;

export interface BuildOptions {
  show: Show;
  mayQuery: (tableId: number) => boolean;
}

export interface XDashboard {
  name: string;
  description: string;
  cards: XCard[];
  sections: string[];
  parameters: XParameter[];
  /** More cards exist than `show` let through. */
  more: boolean;
}

const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '') || 'filter';
const paramId = (f: XField) =>
  createHash('sha1')
    .update(JSON.stringify(fieldRef(f)))
    .digest('hex')
    .slice(0, 8);

function parameter(f: XField, type: string, sectionId: string): XParameter {
  return { id: paramId(f), name: f.displayName, slug: slugOf(f.displayName), type, sectionId, field: f };
}

/**
 * The dashboard's filters: the source's creation date (else its first date), its category fields and the location
 * fields (state, country) of the source and the tables it links to. Only fields of tables the caller may query.
 */
export function chooseParameters(root: XRoot, mayQuery: (tableId: number) => boolean): XParameter[] {
  const usable = root.fields.filter((f) => !f.hidden && (f.tableId === null || mayQuery(f.tableId)));
  const own = usable.filter((f) => f.via === null);
  const params: XParameter[] = [];
  const date =
    own.find((f) => isa(f.semanticType, 'type/CreationTimestamp')) ??
    own.find((f) => isa(f.baseType, 'type/DateTime') || isa(f.baseType, 'type/Date'));
  if (date) params.push(parameter(date, 'date/all-options', 'date'));
  const location = (f: XField) => isa(f.semanticType, 'type/State') || isa(f.semanticType, 'type/Country');
  const category = usable
    .filter(
      (f) =>
        isa(f.semanticType, 'type/Category') &&
        isa(f.baseType, 'type/Text') &&
        !location(f) &&
        !isa(f.semanticType, 'type/City') &&
        !tooVaried(f),
    )
    .sort((a, b) => Number(a.via !== null) - Number(b.via !== null) || a.position - b.position)
    .slice(0, MAX_CATEGORY_FILTERS);
  for (const f of category) params.push(parameter(f, 'string/=', 'string'));
  for (const f of usable.filter(location)) params.push(parameter(f, 'string/=', 'location'));
  const seen = new Set<string>();
  return params.filter((p) => !seen.has(p.id) && Boolean(seen.add(p.id)));
}

/** The best `show` cards (all of them for `all`), in template order. */
export function limitCards(cards: XCard[], show: Show): { cards: XCard[]; more: boolean } {
  const max = show === 'all' ? Infinity : (show ?? DEFAULT_MAX_CARDS);
  if (cards.length <= max) return { cards, more: false };
  const kept = new Set([...cards].sort((a, b) => b.score - a.score).slice(0, max));
  return { cards: cards.filter((c) => kept.has(c)), more: true };
}

/** An x-ray: the template's cards for the root, its sections' titles, name, description and filters. Pure and fast. */
export function buildXray(root: XRoot, template: Template, opts: BuildOptions): XDashboard {
  const all = buildCards(root, template, opts.mayQuery);
  const { cards, more } = limitCards(all, opts.show);
  const chosen = new Map<string, XField>(root.field ? [['Field', root.field]] : []);
  const base = fillTitle(template.title, root, chosen);
  return {
    name: root.qualifier ? `${base} ${root.qualifier}` : base,
    description: fillTitle(template.description, root, chosen),
    cards,
    sections: template.sections.map((s) => fillTitle(s.title, root, chosen)),
    parameters: chooseParameters(root, opts.mayQuery),
    more,
  };
}

/** The two sides' cards next to each other: the cards both sides could make, the left one then the right one. */
export function compareXrays(left: XDashboard, right: XDashboard, leftName: string, rightName: string): XDashboard {
  const rightOf = new Map(right.cards.map((c) => [c.key, c]));
  const cards: XCard[] = [];
  for (const l of left.cards) {
    const r = rightOf.get(l.key);
    if (!r) continue;
    cards.push(
      { ...l, key: `${l.key}@left`, title: `${l.title} (${leftName})` },
      { ...r, key: `${r.key}@right`, title: `${r.title} (${rightName})` },
    );
  }
  return {
    name: `Comparison of ${leftName} and ${rightName}`,
    description: `How ${leftName} compares to ${rightName}.`,
    cards,
    sections: left.sections,
    parameters: left.parameters,
    more: left.more,
  };
}

interface Placed {
  row: number;
  col: number;
  size_x: number;
  size_y: number;
}

/** A section's title card: two rows high, as Metabase's (`group-heading-height`), room for its `#` heading. */
const HEADING_HEIGHT = 2;

const sizeOf = (display: string, paired: boolean): [number, number] =>
  paired ? [12, display === 'scalar' ? 3 : 6] : display === 'scalar' ? [6, 3] : [12, 6];

/** Grid positions (24 columns): a full-width title per section, then its cards left to right. */
export function layout(
  d: XDashboard,
  paired: boolean,
): Array<{ kind: 'text'; text: string; at: Placed } | { kind: 'card'; card: XCard; at: Placed }> {
  const out: Array<{ kind: 'text'; text: string; at: Placed } | { kind: 'card'; card: XCard; at: Placed }> = [];
  let row = 0;
  d.sections.forEach((title, si) => {
    const inSection = d.cards.filter((c) => c.section === si);
    if (inSection.length === 0) return;
    out.push({ kind: 'text', text: `# ${title}`, at: { row, col: 0, size_x: GRID_WIDTH, size_y: HEADING_HEIGHT } });
    row += HEADING_HEIGHT;
    let col = 0;
    let rowHeight = 0;
    for (const card of inSection) {
      const [w, h] = sizeOf(card.display, paired);
      if (col + w > GRID_WIDTH) {
        row += rowHeight;
        col = 0;
        rowHeight = 0;
      }
      out.push({ kind: 'card', card, at: { row, col, size_x: w, size_y: h } });
      col += w;
      rowHeight = Math.max(rowHeight, h);
    }
    row += rowHeight;
  });
  return out;
}
