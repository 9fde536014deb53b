/** The parts of a dashcard the x-ray's filters read (api/dashboard-view's DashcardData has them). */
interface MappedCard {
  card: { dataset_query?: unknown } | null;
  parameter_mappings: Array<{ parameter_id: string; target: unknown }>;
}

/** A filter with a value, as dashboards/params `sentParameters` lists them. */
interface SetFilter {
  id: string;
  type: string;
  value: unknown;
}

/**
 * The query an x-ray card runs through POST /api/dataset: its own, with the set filters mapped to it as `parameters`
 * (`{id, type, target, value}`, the target its mapping's `["dimension", ref]`): an unsaved dashboard has no dashcard
 * query to map them on the server.
 */
export function cardQuery(dc: MappedCard, set: SetFilter[]): Record<string, unknown> {
  const query = (dc.card?.dataset_query ?? {}) as Record<string, unknown>;
  const sent = dc.parameter_mappings.flatMap((m) => {
    const p = set.find((x) => x.id === m.parameter_id);
    return p ? [{ id: p.id, type: p.type, target: m.target, value: p.value }] : [];
  });
  return sent.length ? { ...query, parameters: sent } : query;
}

/** The field each filter is mapped to (`["dimension", ["field", id, ...]]` of the first card that maps it), by parameter id. */
export function filterFields(dashcards: MappedCard[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const dc of dashcards)
    for (const m of dc.parameter_mappings) {
      const ref = Array.isArray(m.target) && m.target[0] === 'dimension' ? (m.target[1] as unknown) : null;
      if (Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number' && !out.has(m.parameter_id))
        out.set(m.parameter_id, ref[1]);
    }
  return out;
}
