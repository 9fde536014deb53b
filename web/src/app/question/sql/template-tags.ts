/**
 * Template tags of a native query as Metabase stores them (`native["template-tags"]`, src/query-engine/mbql/types.ts):
 * parsed from the SQL as the person types, keeping what was already set for a tag of the same name.
 */
export type TagType = 'text' | 'number' | 'date' | 'dimension' | 'card' | 'snippet';

export interface TemplateTag {
  id: string;
  name: string;
  'display-name': string;
  type: TagType;
  required?: boolean;
  default?: unknown;
  dimension?: unknown[];
  'widget-type'?: string;
  'card-id'?: number;
  'snippet-name'?: string;
  'snippet-id'?: number;
}

export type TemplateTags = Record<string, TemplateTag>;

const TAG = /\{\{\s*([^}]+?)\s*\}\}/g;

/** `{{x}}` -> variable x; `{{snippet: a b}}` -> snippet; `{{#12}}` / `{{#12-slug}}` -> card 12 (the server's parse.ts rules). */
export function tagNamesIn(sql: string): Array<{ name: string; kind: 'variable' | 'snippet' | 'card'; ref?: string | number }> {
  const found = new Map<string, { name: string; kind: 'variable' | 'snippet' | 'card'; ref?: string | number }>();
  for (const m of sql.matchAll(TAG)) {
    const inner = m[1];
    const snippet = /^snippet:\s*(.+)$/.exec(inner);
    const card = /^#(\d+)(-[a-z0-9-]*)?$/i.exec(inner);
    if (snippet)
      found.set(`snippet: ${snippet[1].trim()}`, { name: `snippet: ${snippet[1].trim()}`, kind: 'snippet', ref: snippet[1].trim() });
    else if (card) found.set(inner, { name: inner, kind: 'card', ref: Number(card[1]) });
    else if (/^[A-Za-z_][\w.]*$/.test(inner)) found.set(inner, { name: inner, kind: 'variable' });
  }
  return [...found.values()];
}

const humanize = (name: string) => name.replace(/[_.]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : Math.random().toString(36).slice(2));

/** The tags of `sql`: the existing tag of each name kept as set, new ones with Metabase's defaults (a text variable). */
export function syncTags(sql: string, old: TemplateTags, snippetIds: ReadonlyMap<string, number> = new Map()): TemplateTags {
  const next: TemplateTags = {};
  for (const t of tagNamesIn(sql)) {
    const kept = old[t.name];
    if (t.kind === 'snippet') {
      const snippetName = String(t.ref);
      next[t.name] = {
        ...(kept ?? { id: newId(), name: t.name, 'display-name': t.name }),
        type: 'snippet',
        'snippet-name': snippetName,
        ...(snippetIds.has(snippetName) ? { 'snippet-id': snippetIds.get(snippetName) } : {}),
      };
    } else if (t.kind === 'card') {
      next[t.name] = { ...(kept ?? { id: newId(), name: t.name, 'display-name': t.name }), type: 'card', 'card-id': Number(t.ref) };
    } else {
      next[t.name] =
        kept && kept.type !== 'snippet' && kept.type !== 'card'
          ? kept
          : { id: newId(), name: t.name, 'display-name': humanize(t.name), type: 'text' };
    }
  }
  return next;
}

/** Only the tags a person fills in (not snippets nor card references). */
export const variableTags = (tags: TemplateTags) => Object.values(tags).filter((t) => t.type !== 'snippet' && t.type !== 'card');

/** Whether two tag maps are the same (so typing that changes no tag does not re-render the panel). */
export const sameTags = (a: TemplateTags, b: TemplateTags) => JSON.stringify(a) === JSON.stringify(b);
