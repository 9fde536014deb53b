import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { runQuery } from './api';
import { expressionColumns, type Column } from './columns';
import type { StepProps } from './context';
import { ExpressionsStep } from './ExpressionsStep';
import { FiltersStep } from './FiltersStep';
import { clauses, refKey, stageAt, updateStage, type Clause } from './mbql';
import { LimitStep, SortStep } from './SortLimitSteps';
import { Step } from './Step';
import { SummarizeStep } from './SummarizeStep';
import type { Mbql5Query } from './types';

/** The steps every stage has: custom columns, filters, summarize, sort and limit (the first stage also has data and joins). */
export function StageSteps(props: StepProps) {
  const { query, stageIndex } = props;
  // Later stages' regions say which stage they belong to, so every step's name is unique on the page.
  const t = (title: string) => (stageIndex === 0 ? title : `${title} (stage ${stageIndex + 1})`);
  return (
    <>
      <Step title={t('Custom columns')} step="expressions" query={query} stageIndex={stageIndex}>
        <ExpressionsStep {...props} />
      </Step>
      <Step title={t('Filter')} step="filters" query={query} stageIndex={stageIndex}>
        <FiltersStep {...props} />
      </Step>
      <Step title={t('Summarize')} step="summarize" query={query} stageIndex={stageIndex}>
        <SummarizeStep {...props} />
      </Step>
      <Step title={t('Sort')} step="sort" query={query} stageIndex={stageIndex}>
        <SortStep {...props} />
      </Step>
      <Step title={t('Row limit')} step="limit" query={query} stageIndex={stageIndex}>
        <LimitStep {...props} />
      </Step>
    </>
  );
}

const PREVIOUS = 'Previous results';

/**
 * A stage over the previous stage's result (Metabase's "summarize, then filter the summary"). Its columns are that
 * result's, as the server names them: the previous stages are run for one row (POST /api/dataset) and each column is
 * referred to by name, `["field", {base-type}, "count"]`, as Metabase's clients refer to a previous stage's columns.
 */
export function LaterStage({ query, index, onChange }: { query: Mbql5Query; index: number; onChange(q: Mbql5Query): void }) {
  const before: Mbql5Query = { ...query, stages: [...query.stages.slice(0, index - 1), { ...stageAt(query, index - 1), limit: 1 }] };
  const result = useQuery({
    queryKey: ['dataset', 'notebook-columns', before],
    queryFn: ({ signal }) => runQuery(before, signal),
    retry: false,
    staleTime: 60_000,
  });
  const stage = stageAt(query, index);
  const last = index === query.stages.length - 1;
  const heading = (
    <Group justify="space-between">
      <Title order={2} size="h3">
        Stage {index + 1}: on the results of stage {index}
      </Title>
      {last && (
        <Button size="xs" variant="subtle" color="red" onClick={() => onChange({ ...query, stages: query.stages.slice(0, index) })}>
          Remove stage {index + 1}
        </Button>
      )}
    </Group>
  );
  if (result.isPending) return <Loader size="sm" aria-label={`Loading the columns of stage ${index + 1}`} />;
  if (result.isError)
    return (
      <Stack>
        {heading}
        <Alert color="red" title={`The columns of stage ${index + 1} could not be loaded`}>
          {result.error.message}
        </Alert>
      </Stack>
    );
  const joinedColumns: Column[] = result.data.data.cols.map((c) => {
    const ref: Clause = ['field', { 'base-type': c.base_type }, c.name];
    return {
      key: refKey(ref),
      name: c.name,
      displayName: c.display_name,
      group: PREVIOUS,
      baseType: c.base_type,
      semanticType: null,
      fkTarget: null,
      ref,
    };
  });
  const columns = [...joinedColumns, ...expressionColumns(clauses(stage, 'expressions'))];
  return (
    <Stack gap="md">
      {heading}
      <StageSteps
        query={query}
        stageIndex={index}
        stage={stage}
        sourceName={PREVIOUS}
        joinedColumns={joinedColumns}
        columns={columns}
        label={(c) => c.displayName}
        update={(changes) => onChange(updateStage(query, changes, index))}
      />
    </Stack>
  );
}

/** Once the last stage summarizes, its result can be filtered, summarized or sorted again in a new stage. */
export function AddStage({ query, onChange }: { query: Mbql5Query; onChange(q: Mbql5Query): void }) {
  const last = stageAt(query, query.stages.length - 1);
  if (!clauses(last, 'aggregation').length && !clauses(last, 'breakout').length) return null;
  return (
    <Group>
      <Button variant="light" onClick={() => onChange({ ...query, stages: [...query.stages, { 'lib/type': 'mbql.stage/mbql' }] })}>
        Work on these results in a new stage
      </Button>
      <Text size="sm" c="dimmed">
        filter, summarize or sort the summarized rows
      </Text>
    </Group>
  );
}
