import { downloadUrl, enc, getJson } from './http';
import { constraintQuery, publicParameters } from './params';
import type { Dashboard, DashboardClient, Question, QuestionClient, QueryResult, ValuesAnswer } from './types';

/** /api/public/dashboard/:uuid... A public dashboard has no dashcard export endpoint: downloads are written by the page. */
export function publicDashboardClient(uuid: string): DashboardClient {
  const base = `/api/public/dashboard/${enc(uuid)}`;
  return {
    loadDashboard: () => getJson<Dashboard>(base),
    runDashcard: (dc, cardId, values, parameters, { pivot, signal }) =>
      getJson<QueryResult>(
        `/api/public/${pivot ? 'pivot/' : ''}dashboard/${enc(uuid)}/dashcard/${dc.id}/card/${cardId}` +
          `?parameters=${enc(publicParameters(values, parameters))}`,
        signal,
      ),
    downloadDashcard: null,
    parameterValues: (p, query, values) =>
      getJson<ValuesAnswer>(`${base}/params/${enc(p.id)}/${query ? `search/${enc(query)}` : 'values'}${constraintQuery(values, p.id)}`),
  };
}

/** /api/public/card/:uuid... */
export function publicQuestionClient(uuid: string): QuestionClient {
  const base = `/api/public/card/${enc(uuid)}`;
  return {
    loadQuestion: () => getJson<Question>(base),
    runQuestion: (values, parameters, { pivot, signal }) =>
      getJson<QueryResult>(
        `/api/public/${pivot ? 'pivot/' : ''}card/${enc(uuid)}/query?parameters=${enc(publicParameters(values, parameters))}`,
        signal,
      ),
    downloadQuestion: (format, values, parameters) =>
      downloadUrl(`${base}/query/${format}?parameters=${enc(publicParameters(values, parameters))}`),
    parameterValues: (p, query) => getJson<ValuesAnswer>(`${base}/params/${enc(p.id)}/${query ? `search/${enc(query)}` : 'values'}`),
  };
}
