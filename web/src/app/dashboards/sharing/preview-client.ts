import { constraintQuery, embedParameters } from '../../../api/params';
import type { Dashboard, DashboardClient, Question, QuestionClient, QueryResult, ValuesAnswer } from '../../../api/types';
import { api } from '../../api/client';

const enc = encodeURIComponent;

/**
 * The viewer's client of `/api/preview-embed/dashboard/:token...`: what the embed would show with the rules being
 * tried, for the signed-in admin (the preview routes want a superuser's session besides the token, so the calls go
 * with the session cookie, unlike the embed pages' own client). The viewer's values go by slug in `parameters`.
 */
export function previewDashboardClient(token: string): DashboardClient {
  const base = `/api/preview-embed/dashboard/${enc(token)}`;
  const get = <T>(path: string, signal?: AbortSignal) => api<T>('GET', path, { signal });
  return {
    loadDashboard: () => get<Dashboard>(base),
    runDashcard: (dc, cardId, values, parameters, { pivot, signal }) =>
      get<QueryResult>(
        `/api/preview-embed/${pivot ? 'pivot/' : ''}dashboard/${enc(token)}/dashcard/${dc.id}/card/${cardId}` +
          `?parameters=${enc(embedParameters(values, parameters))}`,
        signal,
      ),
    downloadDashcard: null,
    // The preview routes have values but no search: a search narrows the listed values here.
    parameterValues: async (p, query, values) => {
      const answer = await get<ValuesAnswer>(`${base}/params/${enc(p.id)}/values${constraintQuery(values, p.id)}`);
      if (!query) return answer;
      const q = query.toLowerCase();
      return {
        ...answer,
        values: answer.values.filter((v) =>
          String(Array.isArray(v) ? v[0] : v)
            .toLowerCase()
            .includes(q),
        ),
      };
    },
  };
}

/**
 * The same for a question: `/api/preview-embed/card/:token` and its query. The preview routes list no values of a
 * question's parameters: their widgets take typed values.
 */
export function previewQuestionClient(token: string): QuestionClient {
  const base = `/api/preview-embed/card/${enc(token)}`;
  return {
    loadQuestion: () => api<Question>('GET', base),
    runQuestion: (values, parameters, { pivot, signal }) =>
      api<QueryResult>(
        'GET',
        `/api/preview-embed/${pivot ? 'pivot/' : ''}card/${enc(token)}/query?parameters=${enc(embedParameters(values, parameters))}`,
        { signal },
      ),
    // The preview hides its download button.
    downloadQuestion: async () => undefined,
    parameterValues: async () => ({ values: [], has_more_values: false }),
  };
}
