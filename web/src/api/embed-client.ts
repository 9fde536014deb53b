import { downloadUrl, enc, getJson } from './http';
import { constraintQuery, embedParameters } from './params';
import type { Dashboard, DashboardClient, Parameter, Question, QuestionClient, QueryResult, ValuesAnswer } from './types';

/**
 * /api/embed/dashboard/:token... The token stays in the request path only. The viewer's values go by slug in
 * `parameters`; the token's locked values are applied by the server, which refuses a viewer's value for them.
 */
export function embedDashboardClient(token: string): DashboardClient {
  const base = `/api/embed/dashboard/${enc(token)}`;
  return {
    loadDashboard: () => getJson<Dashboard>(base),
    runDashcard: (dc, cardId, values, parameters, { pivot, signal }) =>
      getJson<QueryResult>(
        `/api/embed/${pivot ? 'pivot/' : ''}dashboard/${enc(token)}/dashcard/${dc.id}/card/${cardId}` +
          `?parameters=${enc(embedParameters(values, parameters))}`,
        signal,
      ),
    downloadDashcard: (dc, cardId, format, values, parameters) =>
      downloadUrl(`${base}/dashcard/${dc.id}/card/${cardId}/${format}?parameters=${enc(embedParameters(values, parameters))}`),
    parameterValues: (p, query, values) =>
      getJson<ValuesAnswer>(`${base}/params/${enc(p.id)}/${query ? `search/${enc(query)}` : 'values'}${constraintQuery(values, p.id)}`),
  };
}

/** /api/embed/card/:token... A question's widget lists come from its fields' values (the embed card has no params endpoint). */
export function embedQuestionClient(token: string): QuestionClient {
  const base = `/api/embed/card/${enc(token)}`;
  let question: Question | null = null;
  return {
    loadQuestion: async () => {
      question = await getJson<Question>(base);
      return question;
    },
    runQuestion: (values, parameters, { pivot, signal }) =>
      getJson<QueryResult>(
        `/api/embed/${pivot ? 'pivot/' : ''}card/${enc(token)}/query?parameters=${enc(embedParameters(values, parameters))}`,
        signal,
      ),
    downloadQuestion: (format, values, parameters) =>
      downloadUrl(`${base}/query/${format}?parameters=${enc(embedParameters(values, parameters))}`),
    parameterValues: async (p) => {
      const fieldId = question ? parameterFieldId(question, p) : null;
      if (fieldId === null) return { values: [] };
      const answer = await getJson<{ values: unknown[]; has_more_values?: boolean }>(`${base}/field/${fieldId}/values`);
      return { values: answer.values, has_more_values: answer.has_more_values };
    },
  };
}

/** The field behind a question's parameter: a `["dimension", ["field", id, ...]]` target, or a SQL field filter's tag. */
export function parameterFieldId(q: Question, p: Parameter): number | null {
  const target = p.target as unknown[] | undefined;
  const ref = Array.isArray(target) && target[0] === 'dimension' ? (target[1] as unknown[]) : null;
  if (Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number') return ref[1];
  if (Array.isArray(ref) && ref[0] === 'template-tag') {
    const tags =
      (q.dataset_query as { native?: { 'template-tags'?: Record<string, { dimension?: unknown[] }> } } | undefined)?.native?.[
        'template-tags'
      ] ?? {};
    const dim = tags[String(ref[1])]?.dimension;
    if (Array.isArray(dim) && dim[0] === 'field' && typeof dim[1] === 'number') return dim[1];
  }
  return null;
}
