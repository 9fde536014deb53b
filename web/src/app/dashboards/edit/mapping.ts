import type { DashboardParameter, DashcardCard, DashcardData, ParameterMapping } from '../../api/dashboard-view';
import type { TableFields } from '../../api/dashboard-edit';

export interface TargetOption {
  /** The target as JSON (a select's value). */
  value: string;
  label: string;
  /** The field behind it, for linked filters' valid-filter-fields. */
  fieldId: number | null;
}

const fieldIdOf = (ref: unknown): number | null =>
  Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number' ? (ref[1] as number) : null;

/**
 * Where a filter can go on a card: a native question's template tags (a field filter as a dimension, other tags as
 * variables), else its table's fields (any of them can filter the query, also one the results do not show, as in
 * Metabase) and the columns of its results (`result_metadata`: a model's or a joined table's).
 */
export function targetOptions(card: DashcardCard, table: TableFields | undefined): TargetOption[] {
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
        };
      });
  }
  const out: TargetOption[] = (table?.fields ?? []).map((f) => ({
    value: JSON.stringify(['dimension', ['field', f.id, null]]),
    label: f.display_name,
    fieldId: f.id,
  }));
  const listed = new Set(out.map((o) => o.fieldId));
  for (const c of card.result_metadata ?? []) {
    if (!Array.isArray(c.field_ref) || c.field_ref[0] !== 'field') continue;
    const fieldId = fieldIdOf(c.field_ref);
    if (fieldId !== null && listed.has(fieldId)) continue;
    out.push({ value: JSON.stringify(['dimension', c.field_ref]), label: c.display_name ?? c.name, fieldId });
  }
  return out;
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
