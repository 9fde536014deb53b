import { isa } from '../fields';
import type { DimensionMatcher, Template } from './template.types';
import type { XField } from './xray.types';

/** Categories with more distinct values than this make unreadable charts (names, cities, titles). */
export const MAX_CATEGORY_VALUES = 100;
/** Own fields are preferred to equally good fields of a linked table. */
const LINKED_PENALTY = 30;
const NAME_BONUS = 5;

export interface Candidate {
  field: XField;
  score: number;
}

const isRelation = (t: string | null) => isa(t, 'type/PK') || isa(t, 'type/FK');

/** A field too varied to count by (names, titles, over MAX_CATEGORY_VALUES distinct values). */
export function tooVaried(f: XField): boolean {
  return isa(f.semanticType, 'type/Name') || isa(f.semanticType, 'type/Title') || (f.distinct !== null && f.distinct > MAX_CATEGORY_VALUES);
}

/** The score of a field for one matcher, or null when it does not match. */
export function matchScore(f: XField, m: DimensionMatcher): number | null {
  if (f.hidden) return null;
  if (f.via !== null && !m.linked) return null;
  const wantsRelation = m.semantic !== undefined && isRelation(m.semantic);
  // Keys only match matchers that ask for keys: an id is not a number to sum.
  if (isRelation(f.semanticType) !== wantsRelation) return null;
  if (m.semantic !== undefined && !isa(f.semanticType, m.semantic)) return null;
  if (m.base !== undefined && !isa(f.baseType, m.base)) return null;
  if (m.semantic !== undefined && isa(m.semantic, 'type/Category') && tooVaried(f)) return null;
  let score = m.score;
  if (m.names?.some((n) => n.toLowerCase() === f.name.toLowerCase())) score += NAME_BONUS;
  if (f.via !== null) score -= LINKED_PENALTY;
  return score;
}

/** The fields a dimension may take, best first (ties: own fields, then table order). */
export function candidates(fields: readonly XField[], matchers: readonly DimensionMatcher[]): Candidate[] {
  const found: Candidate[] = [];
  for (const field of fields) {
    let best: number | null = null;
    for (const m of matchers) {
      const s = matchScore(field, m);
      if (s !== null && (best === null || s > best)) best = s;
    }
    if (best !== null) found.push({ field, score: best });
  }
  return found.sort(
    (a, b) => b.score - a.score || Number(a.field.via !== null) - Number(b.field.via !== null) || a.field.position - b.field.position,
  );
}

/** Every dimension of the template with its candidates (a field x-ray's `Field` is the field itself). */
export function bindDimensions(template: Template, fields: readonly XField[], field?: XField): Map<string, Candidate[]> {
  const bound = new Map<string, Candidate[]>();
  for (const [dim, matchers] of Object.entries(template.dimensions)) bound.set(dim, candidates(fields, matchers));
  if (field) bound.set('Field', [{ field, score: 100 }]);
  return bound;
}

/** True when every required dimension of the template finds a field. */
export function applies(template: Template, bound: Map<string, Candidate[]>): boolean {
  return template.requires.every((d) => (bound.get(d)?.length ?? 0) > 0);
}

/** The first template (in order of preference) that applies to these fields. */
export function chooseTemplate(templates: readonly Template[], fields: readonly XField[], field?: XField): Template {
  for (const t of templates) if (applies(t, bindDimensions(t, fields, field))) return t;
  return templates[templates.length - 1];
}

/** The kind of field a field x-ray is for: a field template's `applies_to`. */
export function fieldKind(f: XField): 'date' | 'location' | 'number' | 'category' {
  if (isa(f.baseType, 'type/Temporal') || isa(f.semanticType, 'type/Temporal')) return 'date';
  if (isa(f.semanticType, 'type/Location')) return 'location';
  if (isa(f.baseType, 'type/Number') && !isRelation(f.semanticType) && !isa(f.semanticType, 'type/Category')) return 'number';
  return 'category';
}
