import { Alert, Loader, Stack } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { notebookKeys, tableMetadata } from './api';
import { columnLabel, expressionColumns, implicitColumns, sourceColumns, type Column } from './columns';
import type { StepProps } from './context';
import { DataStep } from './DataStep';
import { JoinsStep } from './JoinsStep';
import { clauses, firstStage, joinsOf, joinTable, updateStage, type Stage } from './mbql';
import { AddStage, LaterStage, StageSteps } from './StageSteps';
import { Step } from './Step';
import { toMbql5 } from './to-mbql5';
import type { NotebookProps } from './types';

/**
 * The question builder: Metabase's notebook steps over the first stage of an MBQL 5 query (data, joins, custom
 * columns, filters, summarize, sort, limit), each a region with its heading and a Preview of ten rows, and as many
 * later stages as the question has (filter, summarize or sort a summary again). A saved legacy query is converted on
 * open (toMbql5; its `source-query` nesting becomes stages); every edit goes to `onChange` as MBQL 5.
 */
export function Notebook({ query: raw, onChange }: NotebookProps) {
  const query = useMemo(() => (raw ? toMbql5(raw) : null), [raw]);
  const stage: Stage = query ? firstStage(query) : {};
  const source = typeof stage['source-card'] === 'number' ? `card__${stage['source-card']}` : (stage['source-table'] as number | undefined);
  const joins = joinsOf(stage);
  // The source's and each joined table's columns, loaded together (a reopened question draws once they are all in).
  const ids = [source, ...joins.map(joinTable)].filter((x): x is number | string => x !== undefined);
  const metas = useQueries({
    queries: ids.map((id) => ({ queryKey: notebookKeys.metadata(id), queryFn: () => tableMetadata(id), staleTime: 60_000 })),
  });
  const sourceMeta = source !== undefined ? metas[0]?.data : undefined;
  // The tables the source's foreign keys point at (a table source only: a question's columns are referred to by name).
  const fkTables =
    typeof source === 'number' && sourceMeta ? [...new Set(sourceMeta.fields.flatMap((f) => (f.target ? [f.target.table_id] : [])))] : [];
  const fkMetas = useQueries({
    queries: fkTables.map((id) => ({ queryKey: notebookKeys.metadata(id), queryFn: () => tableMetadata(id), staleTime: 60_000 })),
  });
  const sourceName = sourceMeta?.display_name ?? '';

  // Recomputed each render: a few hundred columns at most, cheaper than keeping memo keys right.
  const joinedColumns: Column[] = [];
  if (sourceMeta) {
    joinedColumns.push(...sourceColumns(sourceMeta, typeof source === 'string'));
    joins.forEach((j) => {
      const t = joinTable(j);
      const meta = metas.find((m) => m.data?.id === t)?.data;
      // A joined question's columns are referred to by name, as the source's are.
      if (meta) joinedColumns.push(...sourceColumns(meta, typeof t === 'string', j.alias));
    });
  }
  const expressions = clauses(stage, 'expressions');
  const viaKeys = sourceMeta
    ? implicitColumns(
        sourceMeta,
        fkMetas.flatMap((m) => (m.data ? [m.data] : [])),
      )
    : [];
  const columns = [...joinedColumns, ...viaKeys, ...expressionColumns(expressions)];
  const label = useCallback((c: Column) => columnLabel(c, sourceName), [sourceName]);

  const failed = metas.find((m) => m.isError);
  // A foreign key's table that cannot be read only loses its columns; the source's or a join's is an error.
  const loading = metas.some((m) => m.isPending) || fkMetas.some((m) => m.isPending);
  const props: StepProps | null = query
    ? {
        query,
        stageIndex: 0,
        stage,
        sourceName,
        joinedColumns,
        columns,
        label,
        update: (changes) => onChange(updateStage(query, changes, 0)),
      }
    : null;

  return (
    <Stack gap="md" aria-label="Notebook" role="group">
      <Step title="Data" step="data" query={query && source !== undefined ? query : null}>
        <DataStep query={query} sourceName={sourceName} onChange={onChange} />
      </Step>
      {failed && (
        <Alert color="red" title="The columns could not be loaded">
          {failed.error?.message}
        </Alert>
      )}
      {query && source !== undefined && loading && <Loader size="sm" aria-label="Loading columns" />}
      {props && query && !loading && !failed && (
        <>
          <Step title="Join data" step="joins" query={query}>
            <JoinsStep {...props} />
          </Step>
          <StageSteps {...props} />
          {query.stages.slice(1).map((_, i) => (
            <LaterStage key={i + 1} query={query} index={i + 1} onChange={onChange} />
          ))}
          <AddStage query={query} onChange={onChange} />
        </>
      )}
    </Stack>
  );
}
