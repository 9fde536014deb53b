import { useMemo, useState } from 'react';
import type { ApiCard, ApiDataset } from '../api-types';
import { checkDataset } from '../api-types';
import { buttonStyle, CardView } from '../CardView';
import { useAnalyticsContext } from '../context';
import { postJson, useApi, type Loaded } from '../use-api';
import { applyEdits, describeFilter, isEditable, type AddedFilter, type DatasetQuery, type Summary } from './adhoc-query';
import { FilterForm, SummarizeForm, type EditorField } from './QuestionEditor';

export interface InteractiveQuestionProps {
  questionId: number;
  withTitle?: boolean;
  height?: number | string;
  className?: string;
  /** Offer "Save as new question" (only shown when the user may write where the question is). Default true. */
  isSaveEnabled?: boolean;
  /** Called with the new question after a save. */
  onSave?: (card: ApiCard) => void;
}

const DISPLAYS = ['table', 'bar', 'line', 'area', 'row', 'pie', 'scalar'];

/** A question the user can explore: add filters, summarize, change the visualization, and save as a new question. */
export function InteractiveQuestion({
  questionId,
  withTitle = true,
  height,
  className,
  isSaveEnabled = true,
  onSave,
}: InteractiveQuestionProps) {
  const { client } = useAnalyticsContext('<InteractiveQuestion>');
  const [filters, setFilters] = useState<AddedFilter[]>([]);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [display, setDisplay] = useState<string | null>(null);
  const [panel, setPanel] = useState<'filter' | 'summarize' | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const card = useApi<ApiCard>(`card:${questionId}`, (c, signal) => c.fetchJson(`/api/card/${questionId}`, { signal }));
  const meta = useApi<{ tables?: { id: number; fields?: EditorField[] }[] }>(`meta:${questionId}`, (c, signal) =>
    c.fetchJson(`/api/card/${questionId}/query_metadata`, { signal }),
  );
  const base = card.state === 'ready' ? (card.data.dataset_query as DatasetQuery | undefined) : undefined;
  const editable = isEditable(base);
  const sourceTable = editable ? (base.query['source-table'] as number | undefined) : undefined;
  const fields = useMemo(
    () => (meta.state === 'ready' ? (meta.data.tables?.find((t) => t.id === sourceTable)?.fields ?? []) : []),
    [meta, sourceTable],
  );
  const edited = filters.length > 0 || summary !== null;
  const query = base && edited ? applyEdits(base, filters, summary) : base;

  const result = useApi<ApiDataset>(
    card.state === 'ready' ? `q:${questionId}:${JSON.stringify(edited ? query : null)}` : null,
    async (c, signal) =>
      checkDataset(
        edited
          ? await postJson<ApiDataset>(c, '/api/dataset', query, signal)
          : await postJson<ApiDataset>(c, `/api/card/${questionId}/query`, {}, signal),
      ),
  );
  const shown: Loaded<ApiDataset> = card.state === 'error' ? { state: 'error', message: card.message } : result;
  const fieldName = (id: number) => fields.find((f) => f.id === id)?.display_name ?? `#${id}`;
  const currentDisplay =
    display ?? (summary ? (summary.breakout ? 'bar' : 'scalar') : card.state === 'ready' ? card.data.display : 'table');
  const canSave = isSaveEnabled && card.state === 'ready' && card.data.can_write === true && (edited || display !== null);

  const save = async () => {
    if (card.state !== 'ready' || !query) return;
    const name = `${card.data.name} (edited)`;
    const body = {
      name,
      display: currentDisplay,
      visualization_settings: display || summary ? {} : (card.data.visualization_settings ?? {}),
      dataset_query: query,
      collection_id: card.data.collection_id ?? null,
    };
    try {
      const made = await postJson<ApiCard>(client, '/api/card', body);
      setSaved(`Saved as "${made.name}"`);
      onSave?.(made);
    } catch (e) {
      setSaved(`Could not save: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const toolbar = (
    <div style={{ display: 'flex', gap: 6 }}>
      {editable && (
        <button type="button" onClick={() => setPanel(panel === 'filter' ? null : 'filter')} style={buttonStyle}>
          Filter
        </button>
      )}
      {editable && (
        <button type="button" onClick={() => setPanel(panel === 'summarize' ? null : 'summarize')} style={buttonStyle}>
          Summarize
        </button>
      )}
      <select
        aria-label="Visualization"
        value={currentDisplay}
        onChange={(e) => setDisplay(e.target.value)}
        style={{ ...buttonStyle, color: 'inherit' }}
      >
        {[...new Set([currentDisplay, ...DISPLAYS])].map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </select>
      {(edited || display) && (
        <button
          type="button"
          onClick={() => {
            setFilters([]);
            setSummary(null);
            setDisplay(null);
          }}
          style={buttonStyle}
        >
          Reset
        </button>
      )}
      {canSave && (
        <button type="button" data-testid="analytics-save" onClick={save} style={buttonStyle}>
          Save as new question
        </button>
      )}
    </div>
  );

  return (
    <div
      className={className}
      data-testid="analytics-interactive-question"
      data-question-id={questionId}
      data-state={shown.state}
      style={{ height: height ?? '100%', display: 'flex', flexDirection: 'column', gap: 4 }}
    >
      {panel === 'filter' && <FilterForm fields={fields} onAdd={(f) => setFilters([...filters, f])} />}
      {panel === 'summarize' && (
        <SummarizeForm
          fields={fields}
          onApply={(s) => {
            setSummary(s);
            setPanel(null);
          }}
        />
      )}
      {(filters.length > 0 || summary) && (
        <div data-testid="analytics-edits" style={{ display: 'flex', gap: 6, flexWrap: 'wrap', fontSize: 12 }}>
          {filters.map((f, i) => (
            <button key={i} type="button" title="Remove" onClick={() => setFilters(filters.filter((_, j) => j !== i))} style={buttonStyle}>
              {describeFilter(f, fieldName)} ×
            </button>
          ))}
          {summary && (
            <button type="button" title="Remove" onClick={() => setSummary(null)} style={buttonStyle}>
              {summary.aggregation}
              {summary.fieldId ? ` of ${fieldName(summary.fieldId)}` : ''}
              {summary.breakout ? ` by ${fieldName(summary.breakout.fieldId)}` : ''} ×
            </button>
          )}
        </div>
      )}
      {saved && (
        <div role="status" data-testid="analytics-saved" style={{ fontSize: 12 }}>
          {saved}
        </div>
      )}
      <div style={{ flex: '1 1 auto', minHeight: 0 }}>
        <CardView
          title={withTitle && card.state === 'ready' ? card.data.name : undefined}
          display={currentDisplay}
          settings={display || summary ? {} : card.state === 'ready' ? (card.data.visualization_settings ?? {}) : {}}
          result={shown}
          toolbar={card.state === 'ready' ? toolbar : undefined}
        />
      </div>
    </div>
  );
}
