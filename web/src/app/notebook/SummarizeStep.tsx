import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useId, useState } from 'react';
import { findColumn, kindOf } from './columns';
import { columnOptions, type StepProps } from './context';
import { runQuery } from './api';
import { ExpressionInput } from './ExpressionInput';
import { AGGREGATION_NAMES, ExpressionError, FUNCTION_NAMES, parseExpression } from './expression';
import { clauses, isClause, updateStage, withOptions, type Clause } from './mbql';
import { queryUntil } from './steps';
import {
  AGGREGATIONS,
  BINNINGS,
  binningName,
  buildAggregation,
  buildBreakout,
  describeAggregation,
  describeBreakout,
  TEMPORAL_UNITS,
} from './summarize';

/** Summarize: the metrics (`aggregation`) and the columns to group them by (`breakout`, dates bucketed, numbers binned). */
export function SummarizeStep(props: StepProps) {
  const { stage, update, columns, label } = props;
  const aggregations = clauses(stage, 'aggregation');
  const breakouts = clauses(stage, 'breakout');
  const [adding, setAdding] = useState<'metric' | 'group' | null>(null);
  const metricsId = useId();
  const groupsId = useId();
  // Sorting by a metric refers to it by uuid: removing the metric removes that sort too.
  const removeAggregation = (i: number) => {
    const uuid = aggregations[i][1]['lib/uuid'];
    const orderBy = clauses(stage, 'order-by').filter((o) => !(Array.isArray(o[2]) && o[2][0] === 'aggregation' && o[2][2] === uuid));
    update({ aggregation: aggregations.filter((_, k) => k !== i), 'order-by': orderBy });
  };
  const setBreakout = (i: number, b: Clause) => update({ breakout: breakouts.map((x, k) => (k === i ? b : x)) });

  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} id={metricsId}>
        Metrics
      </Text>
      {aggregations.length > 0 && (
        <ul aria-labelledby={metricsId} style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {aggregations.map((a, i) => {
            const text = describeAggregation(a, columns, label);
            return (
              <li key={i}>
                <Group gap="xs">
                  <Text size="sm">{text}</Text>
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove metric ${text}`} onClick={() => removeAggregation(i)}>
                    ×
                  </ActionIcon>
                </Group>
              </li>
            );
          })}
        </ul>
      )}
      {adding === 'metric' ? (
        <MetricForm {...props} onDone={(a) => (a && update({ aggregation: [...aggregations, a] }), setAdding(null))} />
      ) : (
        <Group>
          <Button variant="light" size="xs" onClick={() => setAdding('metric')}>
            Add metric
          </Button>
        </Group>
      )}
      <Text size="sm" fw={600} id={groupsId}>
        Group by
      </Text>
      {breakouts.length > 0 && (
        <ul aria-labelledby={groupsId} style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {breakouts.map((b, i) => {
            const text = describeBreakout(b, columns, label);
            const col = findColumn(columns, b);
            const kind = col ? kindOf(col.baseType) : 'other';
            return (
              <li key={i}>
                <Group gap="xs">
                  <Text size="sm">{text}</Text>
                  {kind === 'date' && (
                    <Select
                      size="xs"
                      aria-label={`Date unit of ${col ? label(col) : text}`}
                      data={TEMPORAL_UNITS.map((u) => ({ value: u, label: u.replace(/-/g, ' ') }))}
                      value={typeof b[1]['temporal-unit'] === 'string' ? b[1]['temporal-unit'] : null}
                      onChange={(v) => v && setBreakout(i, withOptions(b, { 'temporal-unit': v }))}
                      allowDeselect={false}
                      w={140}
                    />
                  )}
                  {kind === 'number' && (
                    <Select
                      size="xs"
                      aria-label={`Binning of ${col ? label(col) : text}`}
                      data={Object.keys(BINNINGS)}
                      value={binningName(b)}
                      onChange={(v) => v && setBreakout(i, withOptions(b, { binning: BINNINGS[v] }))}
                      allowDeselect={false}
                      w={120}
                    />
                  )}
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove grouping ${text}`}
                    onClick={() => update({ breakout: breakouts.filter((_, k) => k !== i) })}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </li>
            );
          })}
        </ul>
      )}
      {adding === 'group' ? (
        <GroupForm {...props} onDone={(b) => (b && update({ breakout: [...breakouts, b] }), setAdding(null))} />
      ) : (
        <Group>
          <Button variant="light" size="xs" onClick={() => setAdding('group')}>
            Add grouping
          </Button>
        </Group>
      )}
    </Stack>
  );
}

const CUSTOM = 'custom';

function MetricForm(props: StepProps & { onDone(a: Clause | null): void }) {
  const { columns, label, onDone } = props;
  const [id, setId] = useState<string>('count');
  const [key, setKey] = useState<string | null>(null);
  const def = AGGREGATIONS.find((a) => a.id === id);
  const usable = (c: (typeof columns)[number]) => !def?.numeric || kindOf(c.baseType) === 'number';
  const column = columns.find((c) => c.key === key && usable(c));
  const options = [...AGGREGATIONS.map((a) => ({ value: a.id, label: a.label })), { value: CUSTOM, label: 'Custom expression' }];
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <Select label="Metric" data={options} value={id} onChange={(v) => v && setId(v)} allowDeselect={false} />
        {def?.column && (
          <Select label="Column" searchable data={columnOptions(columns, label, usable)} value={column ? key : null} onChange={setKey} />
        )}
        {def && (
          <>
            <Button size="xs" disabled={def.column && !column} onClick={() => onDone(buildAggregation(id, column))}>
              Add metric
            </Button>
            <Button size="xs" variant="default" onClick={() => onDone(null)}>
              Cancel
            </Button>
          </>
        )}
      </Group>
      {id === CUSTOM && <CustomMetricForm {...props} />}
    </Stack>
  );
}

/** A metric written as an expression (`Sum([Total]) / Count`), named by its display name and checked by the API. */
function CustomMetricForm({ query, stage, stageIndex, columns, label, onDone }: StepProps & { onDone(a: Clause | null): void }) {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const byName = new Map(columns.map((c) => [label(c).toLowerCase(), c]));
  const submit = async () => {
    setError(null);
    setNameError(null);
    if (!name.trim()) return setNameError('Name the metric');
    let parsed: unknown;
    try {
      parsed = parseExpression(text, (n) => byName.get(n.toLowerCase())?.ref ?? null, { aggregations: true });
    } catch (e) {
      return setError(e instanceof ExpressionError ? e.message : String(e));
    }
    if (!isClause(parsed)) return setError('A metric aggregates rows: use Count, Sum, Average...');
    const metric: Clause = [parsed[0], { ...parsed[1], name: name.trim(), 'display-name': name.trim() }, ...parsed.slice(2)];
    const changed = updateStage(query, { aggregation: [...clauses(stage, 'aggregation'), metric] }, stageIndex);
    setChecking(true);
    try {
      await runQuery(queryUntil(changed, 'summarize', 1, stageIndex));
    } catch (e) {
      setChecking(false);
      return setError(e instanceof Error ? e.message : String(e));
    }
    setChecking(false);
    onDone(metric);
  };
  return (
    <Stack gap="xs" maw={640}>
      <TextInput label="Metric name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} />
      <ExpressionInput
        label="Metric expression"
        description="Aggregations of columns in brackets, e.g. Sum([Total]) / Count"
        value={text}
        onChange={setText}
        columnNames={[...new Set(columns.map(label))]}
        functionNames={[...AGGREGATION_NAMES, ...FUNCTION_NAMES]}
        error={error}
      />
      <Group>
        <Button size="xs" onClick={() => void submit()} loading={checking}>
          Add custom metric
        </Button>
        <Button size="xs" variant="default" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

function GroupForm({ columns, label, onDone }: StepProps & { onDone(b: Clause | null): void }) {
  const [key, setKey] = useState<string | null>(null);
  const [unit, setUnit] = useState<string>('month');
  const [binning, setBinning] = useState<string>('none');
  const column = columns.find((c) => c.key === key);
  const kind = column ? kindOf(column.baseType) : 'other';
  return (
    <Group align="flex-end" wrap="wrap">
      <Select label="Group by column" searchable data={columnOptions(columns, label)} value={key} onChange={setKey} />
      {kind === 'date' && (
        <Select
          label="Date unit"
          data={TEMPORAL_UNITS.map((u) => ({ value: u, label: u.replace(/-/g, ' ') }))}
          value={unit}
          onChange={(v) => v && setUnit(v)}
          allowDeselect={false}
        />
      )}
      {kind === 'number' && (
        <Select label="Binning" data={Object.keys(BINNINGS)} value={binning} onChange={(v) => v && setBinning(v)} allowDeselect={false} />
      )}
      <Button size="xs" disabled={!column} onClick={() => column && onDone(buildBreakout(column, { unit, binning }))}>
        Add grouping
      </Button>
      <Button size="xs" variant="default" onClick={() => onDone(null)}>
        Cancel
      </Button>
    </Group>
  );
}
