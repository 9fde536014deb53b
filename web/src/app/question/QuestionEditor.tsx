import { Alert, Skeleton, Stack } from '@mantine/core';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import type { Card } from '../api/card';
import { runCard, runDataset, type DatasetResult } from '../api/dataset';
import { ConfirmModal } from '../components/ConfirmModal';
import { newQuery } from '../notebook/mbql';
import { toMbql5 } from '../notebook/to-mbql5';
import type { Mbql5Query } from '../notebook/types';
import { adhocPath, adhocXrayPath } from './adhoc';
import type { DrillAction } from './drill/drill';
import { isNative, sameContent, type Draft } from './draft';
import { FilterBar } from './FilterBar';
import { toParameters, type TagValues } from './parameters';
import { QuestionHeader } from './QuestionHeader';
import { ResultsPane } from './results/ResultsPane';
import { variableTags, type TemplateTags } from './sql/template-tags';
import { useTimelines } from './timelines/TimelineControls';
import { useRunner } from './use-runner';

/** One empty map, so a question without tags does not compute its parameters anew on every render. */
const NO_TAGS: TemplateTags = {};

// Each editor is its own chunk: a SQL question never downloads the query builder, nor a notebook question CodeMirror.
const Notebook = lazy(() => import('../notebook').then((m) => ({ default: m.Notebook })));
const SqlEditor = lazy(() => import('./sql/SqlEditor').then((m) => ({ default: m.SqlEditor })));

/**
 * The question being edited: the header (name, Run, Save, the menu), the editor (SQL or the query builder), the
 * variables' filter bar and the results. `card` is the saved card (null for a new question); `initial` the draft
 * to start from. A saved question runs as soon as it opens, as does an ad-hoc one (`adhoc`: opened from its URL, drilled
 * from the saved question `originalCardId`).
 */
export function QuestionEditor({
  card,
  initial,
  onReload,
  adhoc,
}: {
  card: Card | null;
  initial: Draft;
  onReload(): void;
  adhoc?: { originalCardId: number | null };
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [values, setValues] = useState<TagValues>(() => defaultValues(initial));
  const runner = useRunner();
  // Memoized on the answer: a new data object would have the chart drawn again on every keystroke.
  const shownResult = useMemo(() => withModelNames(runner.result, card), [runner.result, card]);
  const nativeQuery = isNative(draft.dataset_query) ? draft.dataset_query : null;
  const native = nativeQuery !== null;
  const tags = (nativeQuery?.native['template-tags'] ?? NO_TAGS) as TemplateTags;
  const parameters = useMemo(() => toParameters(tags, values), [tags, values]);
  const dirty = card === null || !sameContent(draft, card);

  // Leaving with edits not saved asks first (a save or a move to the trash says it may leave: allowLeave).
  const edited = card ? dirty : contentOf(draft) !== contentOf(initial);
  const leaving = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => edited && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  const allowLeave = useCallback(() => {
    leaving.current = true;
  }, []);

  const run = useCallback(
    (selection?: string) => {
      const query = draft.dataset_query;
      if (card && !dirty && !selection) return runner.run((signal) => runCard(card.id, parameters, signal));
      const sent = selection && isNative(query) ? { ...query, native: { ...query.native, query: selection } } : query;
      return runner.run((signal) => runDataset({ ...sent, parameters }, signal));
    },
    [card, dirty, draft.dataset_query, parameters, runner],
  );

  // A saved question shows its answer at once, as in Metabase.
  useEffect(() => {
    if (card || adhoc) void run();
    // Only on open: later runs are the person's.
  }, []);

  const setQuery = useCallback((q: Record<string, unknown>) => setDraft((d) => ({ ...d, dataset_query: q })), []);
  // Drill-through: a structured query's values; of SQL, only a model's cells (as the model's own source).
  const navigate = useNavigate();
  const drillQuery = useMemo((): Mbql5Query | null => {
    if (!native) return toMbql5(draft.dataset_query);
    return card?.type === 'model' && !dirty && nativeQuery.database !== null ? newQuery(nativeQuery.database, { card: card.id }) : null;
  }, [native, draft.dataset_query, card, dirty, nativeQuery]);
  const originalCardId = card?.id ?? adhoc?.originalCardId ?? null;
  // The new question replaces this one without asking, as in Metabase (its URL keeps it; Back returns here).
  const onDrill = (a: DrillAction) => {
    allowLeave();
    if (a.xray) return navigate(adhocXrayPath(a.query as unknown as Record<string, unknown>));
    navigate(
      adhocPath({
        dataset_query: { ...a.query },
        display: a.display ?? draft.display,
        visualization_settings: a.display ? {} : draft.visualization_settings,
        ...(originalCardId !== null ? { original_card_id: originalCardId } : {}),
      }),
    );
  };
  const timelines = useTimelines({
    cardId: originalCardId,
    collectionId: card?.collection_id ?? null,
    result: shownResult,
    display: draft.display,
  });

  const canRun = native ? Boolean(nativeQuery.native.query.trim()) : Object.keys(draft.dataset_query).length > 0;

  return (
    <Stack gap="md">
      <QuestionHeader
        card={card}
        draft={draft}
        dirty={dirty}
        running={runner.running}
        canRun={canRun}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
        onRun={() => void run()}
        onCancel={runner.cancel}
        onReload={onReload}
        allowLeave={allowLeave}
      />
      <Suspense fallback={<Skeleton h={200} aria-label="Loading the editor" />}>
        {native ? (
          <SqlEditor
            query={nativeQuery}
            onChange={setQuery}
            onRun={(selection) => void run(selection)}
            onCancel={runner.cancel}
            running={runner.running}
            error={runner.error}
          />
        ) : (
          <Notebook
            query={Object.keys(draft.dataset_query).length ? draft.dataset_query : null}
            onChange={(q: Mbql5Query) => setQuery({ ...q })}
          />
        )}
      </Suspense>
      {native && variableTags(tags).length > 0 && <FilterBar tags={tags} values={values} onChange={setValues} onRun={() => void run()} />}
      {!native && runner.error && (
        <Alert color="red" title="The query failed" role="alert">
          {runner.error}
        </Alert>
      )}
      <ResultsPane
        runner={{ ...runner, result: shownResult }}
        display={draft.display}
        settings={draft.visualization_settings}
        onDisplay={(display) => setDraft((d) => ({ ...d, display }))}
        onSettings={(visualization_settings) => setDraft((d) => ({ ...d, visualization_settings }))}
        name={draft.name || 'query_result'}
        downloadTarget={card && !dirty ? { cardId: card.id, parameters } : { query: { ...draft.dataset_query, parameters } }}
        drillQuery={drillQuery}
        onDrill={onDrill}
        markers={timelines.markers}
        timelineControls={timelines.controls}
      />
      <ConfirmModal
        opened={blocker.state === 'blocked'}
        title="Discard your changes?"
        confirmLabel="Discard changes"
        onClose={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      >
        Your edits to this {draft.type} are not saved. Leave the page anyway?
      </ConfirmModal>
    </Stack>
  );
}

/** What a save keeps of the draft besides its name: the query, the display and its settings. */
const contentOf = (d: Draft) => JSON.stringify([d.dataset_query, d.display, d.visualization_settings]);

/** The filter bar starts with each variable's default. */
function defaultValues(d: Draft): TagValues {
  if (!isNative(d.dataset_query)) return {};
  const tags = (d.dataset_query.native['template-tags'] ?? {}) as TemplateTags;
  const out: TagValues = {};
  for (const t of variableTags(tags))
    if (t.default !== undefined && t.default !== null) out[t.name] = Array.isArray(t.default) ? t.default.join(', ') : String(t.default);
  return out;
}

/**
 * A model's answer with the column names its metadata gives: `POST /api/card/:id/query` answers the query's own
 * display names (the server applies a model's result_metadata only where the model is a source), so the page renames.
 */
function withModelNames(result: DatasetResult | null, card: Card | null): DatasetResult | null {
  const columns = card?.type === 'model' ? card.result_metadata : null;
  if (!result || !columns?.length) return result;
  const names = new Map(columns.map((c) => [String(c.name), typeof c.display_name === 'string' ? c.display_name : null]));
  const cols = result.data.cols.map((c) => ({ ...c, display_name: names.get(c.name) ?? c.display_name }));
  return { ...result, data: { ...result.data, cols } };
}
