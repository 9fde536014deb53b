import { useState } from 'react';
import type { ApiCard, ApiDataset } from './api-types';
import { checkDataset } from './api-types';
import { CardView } from './CardView';
import { ParameterBar } from './ParameterBar';
import { cardQueryParameters, visibleParameters, type ParameterValues } from './parameters';
import { downloadResult } from './download';
import { postJson, useApi, type Loaded } from './use-api';
import { useAnalyticsContext } from './context';

export interface StaticQuestionProps {
  questionId: number;
  /** Parameter values by slug, e.g. `{ category: ['Gizmo'] }`. */
  initialParameters?: ParameterValues;
  /** Slugs of parameters not shown as fields (their values still apply). */
  hiddenParameters?: string[];
  withTitle?: boolean;
  withDownloads?: boolean;
  /** Height of the component; by default it fills its container (320 px in an unsized one). */
  height?: number | string;
  className?: string;
}

/** A saved question drawn as it is saved, read-only. */
export function StaticQuestion({
  questionId,
  initialParameters,
  hiddenParameters,
  withTitle = true,
  withDownloads = false,
  height,
  className,
}: StaticQuestionProps) {
  const { client } = useAnalyticsContext('<StaticQuestion>');
  const [values, setValues] = useState<ParameterValues>(initialParameters ?? {});
  const card = useApi<ApiCard>(`card:${questionId}`, (c, signal) => c.fetchJson(`/api/card/${questionId}`, { signal }));
  const params = card.state === 'ready' ? (card.data.parameters ?? []) : [];
  const queryParams = cardQueryParameters(params, values);
  const result = useApi<ApiDataset>(
    card.state === 'ready' ? `query:${questionId}:${JSON.stringify(queryParams)}` : null,
    async (c, signal) => checkDataset(await postJson<ApiDataset>(c, `/api/card/${questionId}/query`, { parameters: queryParams }, signal)),
  );
  const shown: Loaded<ApiDataset> = card.state === 'error' ? { state: 'error', message: card.message } : result;
  return (
    <div
      className={className}
      data-testid="analytics-question"
      data-question-id={questionId}
      data-state={shown.state}
      style={{ height: height ?? '100%', display: 'flex', flexDirection: 'column' }}
    >
      <ParameterBar parameters={visibleParameters(params, hiddenParameters)} values={values} onChange={setValues} />
      <CardView
        title={withTitle && card.state === 'ready' ? card.data.name : undefined}
        display={card.state === 'ready' ? card.data.display : 'table'}
        settings={card.state === 'ready' ? (card.data.visualization_settings ?? {}) : {}}
        result={shown}
        onDownload={
          withDownloads && card.state === 'ready'
            ? () => downloadResult(client, `/api/card/${questionId}/query/csv`, queryParams, `${card.data.name}.csv`)
            : undefined
        }
      />
    </div>
  );
}
