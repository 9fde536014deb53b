import type { DashboardParameter, DashcardCard, DashcardData, ParameterMapping, TableFields } from '../../api/dashboard-types';

export interface TargetOption {
  /** The target as JSON (a select's value). */
  value: string;
  label: string;
  /** The field behind it, for linked filters' valid-filter-fields. */
  fieldId: number | null;
  /** Of a type this kind of filter narrows (a date column for a date filter): offered first. */
  suggested: boolean;
}

interface Typed {
  base_type?: string | null;
  semantic_type?: string | null;
}

const NUMBER = /^type\/(Integer|BigInteger|Float|Decimal|Number)$/;
const TEMPORAL = /^type\/(Date|DateTime|DateTimeWithTZ|DateTimeWithLocalTZ|DateTimeWithZoneID|DateTimeWithZoneOffset|Temporal)$/;
const LOCATION = /^type\/(City|State|Country|ZipCode|Address)$/;

/** The kind of column a filter narrows, from its section (or its type's first part: `number/between` is a number). */
export function filterSection(parameter: Pick<DashboardParameter, 'type' | 'sectionId'>): string {
  const section = parameter.sectionId ?? parameter.type.split('/')[0];
  return section === 'category' ? 'string' : section;
}

/** Whether a column of this type suits a filter of `section`, as Metabase offers columns for each kind of filter. */
export function suits(section: string, col: Typed): boolean {
  const base = col.base_type ?? '';
  const semantic = col.semantic_type ?? '';
  switch (section) {
    case 'id':
      return semantic === 'type/PK' || semantic === 'type/FK';
    case 'number':
      return NUMBER.test(base) && semantic !== 'type/PK' && semantic !== 'type/FK';
    case 'date':
      return TEMPORAL.test(base);
    case 'location':
      return LOCATION.test(semantic);
    case 'string':
      return base === 'type/Text' && semantic !== 'type/PK' && semantic !== 'type/FK';
    case 'boolean':
      return base === 'type/Boolean';
    default:
      return true;
  }
}

/** A variable's tag type each kind of filter fills (a field filter's field decides for itself). */
const TAG_SECTION: Record<string, string> = { text: 'string', number: 'number', date: 'date', boolean: 'boolean' };

const fieldIdOf = (ref: unknown): number | null =>
  Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number' ? (ref[1] as number) : null;

/**
 * Where a filter can go on a card: a native question's template tags (a field filter as a dimension, other tags as
 * variables), else its table's fields (any of them can filter the query, also one the results do not show, as in
 * Metabase) and the columns of its results (`result_metadata`: a model's or a joined table's).
 */
export function targetOptions(
  card: DashcardCard,
  table: TableFields | undefined,
  parameter: Pick<DashboardParameter, 'type' | 'sectionId' | 'name'>,
): TargetOption[] {
  const section = filterSection(parameter);
  const tags = card.dataset_query?.native?.['template-tags'];
  if (card.dataset_query?.type === 'native' || tags) {
    return Object.values(tags ?? {})
      .filter((t) => t.type !== 'snippet' && t.type !== 'card')
      .map((t) => {
        const isField = t.type === 'dimension';
        return {
          value: JSON.stringify([isField ? 'dimension' : 'variable', ['template-tag', t.name]]),
          label: t.name,
          fieldId: isField ? fieldIdOf(t.dimension) : null,
          suggested: isField || TAG_SECTION[t.type] === section,
        };
      });
  }
  const out: TargetOption[] = (table?.fields ?? []).map((f) => ({
    value: JSON.stringify(['dimension', ['field', f.id, null]]),
    label: f.display_name,
    fieldId: f.id,
    suggested: suits(section, f),
  }));
  const listed = new Set(out.map((o) => o.fieldId));
  for (const c of card.result_metadata ?? []) {
    if (!Array.isArray(c.field_ref) || c.field_ref[0] !== 'field') continue;
    const fieldId = fieldIdOf(c.field_ref);
    if (fieldId !== null && listed.has(fieldId)) continue;
    out.push({ value: JSON.stringify(['dimension', c.field_ref]), label: c.display_name ?? c.name, fieldId, suggested: suits(section, c) });
  }
  // A column named as the filter is the likeliest: first.
  const named = (o: TargetOption) => (o.label.toLowerCase() === parameter.name.toLowerCase() ? 0 : 1);
  return out.sort((a, b) => Number(b.suggested) - Number(a.suggested) || named(a) - named(b));
}

/** The mapping of `parameter` on a dashcard's card, if wired. */
export function mappingOf(dc: DashcardData, parameterId: string): ParameterMapping | undefined {
  return dc.parameter_mappings.find((m) => m.parameter_id === parameterId && (m.card_id ?? dc.card_id) === dc.card_id);
}

/** The dashcard's mappings with `parameter` wired to `target` (null: unwired). */
export function withMapping(dc: DashcardData, parameterId: string, target: unknown | null): ParameterMapping[] {
  const others = dc.parameter_mappings.filter((m) => m.parameter_id !== parameterId);
  return target === null ? others : [...others, { parameter_id: parameterId, card_id: dc.card_id, target }];
}

/** The field ids a parameter is wired to across the dashboard's cards (for linked filters). */
export function wiredFields(parameter: DashboardParameter, dashcards: DashcardData[]): number[] {
  const ids = new Set<number>();
  for (const dc of dashcards) {
    const m = mappingOf(dc, parameter.id);
    const target = m?.target as unknown[] | undefined;
    if (Array.isArray(target) && target[0] === 'dimension') {
      const id = fieldIdOf(target[1]);
      if (id !== null) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * The target on `other` that narrows the same column as `target` does on `from`, or null: a question on the same
 * table takes the same column; otherwise a question whose results carry that field, or a native question with a
 * field filter on it. What Metabase wires by itself when a filter is wired to one card.
 */
export function sameColumnOn(other: DashcardCard, from: DashcardCard, target: unknown): unknown | null {
  if (!Array.isArray(target) || target[0] !== 'dimension') return null;
  const ref = target[1] as unknown[];
  const tags = from.dataset_query?.native?.['template-tags'];
  const fieldId = Array.isArray(ref) && ref[0] === 'template-tag' ? fieldIdOf(tags?.[ref[1] as string]?.dimension) : plainFieldId(ref);
  const otherTags = other.dataset_query?.native?.['template-tags'];
  if (other.dataset_query?.type === 'native' || otherTags) {
    if (fieldId === null) return null;
    const tag = Object.values(otherTags ?? {}).find((t) => t.type === 'dimension' && fieldIdOf(t.dimension) === fieldId);
    return tag ? ['dimension', ['template-tag', tag.name]] : null;
  }
  const fromIsQuery = from.dataset_query?.type !== 'native' && !tags;
  if (fromIsQuery && typeof from.table_id === 'number' && other.table_id === from.table_id) return target;
  if (fieldId === null) return null;
  const carried = (other.result_metadata ?? []).some((c) => plainFieldId(c.field_ref) === fieldId);
  return carried ? ['dimension', ['field', fieldId, null]] : null;
}

/** A field id of a ref that reads the field itself (not through a join or a foreign key). */
function plainFieldId(ref: unknown): number | null {
  const id = fieldIdOf(ref);
  if (id === null) return null;
  const opts = (ref as unknown[])[2] as Record<string, unknown> | null | undefined;
  return opts && (opts['join-alias'] || opts['source-field']) ? null : id;
}

/**
 * After `parameterId` was wired to `target` on `from`: the other cards among `candidates` not yet wired to it that
 * can take the same column, each with its target.
 */
export function autoWireTargets(
  candidates: DashcardData[],
  from: DashcardData,
  parameterId: string,
  target: unknown,
): Array<{ dashcardId: number; target: unknown }> {
  const out: Array<{ dashcardId: number; target: unknown }> = [];
  for (const dc of candidates) {
    if (dc.id === from.id || !dc.card || !from.card || mappingOf(dc, parameterId)) continue;
    const t = sameColumnOn(dc.card, from.card, target);
    if (t !== null) out.push({ dashcardId: dc.id, target: t });
  }
  return out;
}

/** A card just added: the filters wired on other cards that it can take too, each with its target. */
export function wiringForNewCard(added: DashcardData, dashcards: DashcardData[], parameters: DashboardParameter[]): ParameterMapping[] {
  const out: ParameterMapping[] = [];
  if (!added.card) return out;
  for (const p of parameters) {
    for (const dc of dashcards) {
      const m = dc.id !== added.id && dc.card ? mappingOf(dc, p.id) : undefined;
      const t = m ? sameColumnOn(added.card, dc.card!, m.target) : null;
      if (t !== null) {
        out.push({ parameter_id: p.id, card_id: added.card_id, target: t });
        break;
      }
    }
  }
  return out;
}
