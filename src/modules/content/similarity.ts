/**
 * How alike two definitions are, as Metabase's related API ranks them: the share of context-bearing forms (field,
 * segment and metric references) the less specific one has in common with the other. Pure.
 */
export function contextForms(definition: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (form: unknown): void => {
    if (!Array.isArray(form)) {
      if (form && typeof form === 'object') Object.values(form).forEach(visit);
      return;
    }
    if (
      (form[0] === 'field' || form[0] === 'segment' || form[0] === 'metric') &&
      (typeof form[1] === 'number' || typeof form[1] === 'string')
    ) {
      out.add(`${form[0]}:${form[1]}`);
      return;
    }
    form.forEach(visit);
  };
  visit(definition);
  return out;
}

export function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / Math.max(Math.min(a.size, b.size), 1);
}

/** `items` most similar first (ties keep their order), at most `max`. */
export function rankBySimilarity<T>(reference: unknown, items: T[], definitionOf: (t: T) => unknown, max: number): T[] {
  const ref = contextForms(reference);
  return items
    .map((item, i) => ({ item, i, score: similarity(ref, contextForms(definitionOf(item))) }))
    .sort((x, y) => y.score - x.score || x.i - y.i)
    .slice(0, max)
    .map((x) => x.item);
}

/** The part of a definition Metabase's related API compares: a metric's aggregation and filter, a segment's filter. */
export function comparableDefinition(kind: 'segment' | 'metric', definition: unknown): unknown {
  const d = definition && typeof definition === 'object' && !Array.isArray(definition) ? (definition as Record<string, unknown>) : {};
  return kind === 'metric' ? [d.aggregation ?? null, d.filter ?? null] : (d.filter ?? null);
}
