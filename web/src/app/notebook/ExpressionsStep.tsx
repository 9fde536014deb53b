import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { runQuery } from './api';
import { columnLabel } from './columns';
import type { StepProps } from './context';
import { ExpressionInput } from './ExpressionInput';
import { ExpressionError, formatExpression, parseExpression } from './expression';
import {
  clause,
  clauses,
  expressionName,
  isClause,
  refKey,
  renameExpressionRefs,
  updateStage,
  withoutDependents,
  type Clause,
  type Stage,
} from './mbql';
import { queryUntil } from './steps';

/** Custom columns: a name and an expression, parsed here and checked by the API before they join the question. */
export function ExpressionsStep(props: StepProps) {
  const { stage, update, columns } = props;
  const expressions = clauses(stage, 'expressions');
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const nameOf = (ref: Clause) => {
    const key = refKey(ref);
    const col = columns.find((c) => c.key === key);
    return col ? columnLabel(col, props.sourceName) : null;
  };
  return (
    <Stack gap="xs">
      {expressions.length > 0 && (
        <ul aria-label="Custom columns" style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {expressions.map((e, i) => (
            <li key={i}>
              <Group gap="xs">
                <Text size="sm">
                  <strong>{expressionName(e)}</strong> = <code>{formatExpression(stripName(e), nameOf)}</code>
                </Text>
                <Button variant="subtle" size="compact-xs" aria-label={`Edit ${expressionName(e)}`} onClick={() => setEditing(i)}>
                  Edit
                </Button>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${expressionName(e)}`}
                  onClick={() => {
                    const name = expressionName(e);
                    const rest = expressions.filter((_, k) => k !== i);
                    const changes = withoutDependents({ ...stage, expressions: rest }, (r) => r[0] === 'expression' && r[2] === name);
                    update({ expressions: rest, ...changes });
                  }}
                >
                  ×
                </ActionIcon>
              </Group>
            </li>
          ))}
        </ul>
      )}
      {editing !== null ? (
        <ExpressionForm
          {...props}
          index={editing === 'new' ? expressions.length : editing}
          initial={editing === 'new' ? undefined : expressions[editing]}
          nameOf={nameOf}
          onDone={() => setEditing(null)}
        />
      ) : (
        <Group>
          <Button variant="light" size="xs" onClick={() => setEditing('new')}>
            Add custom column
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** A saved expression without its name option, to show as text. */
function stripName(e: Clause): Clause {
  const { 'lib/expression-name': _name, ...rest } = e[1];
  return [e[0], rest, ...e.slice(2)];
}

function ExpressionForm({
  query,
  stageIndex,
  stage,
  columns,
  sourceName,
  update,
  index,
  initial,
  nameOf,
  onDone,
}: StepProps & { index: number; initial?: Clause; nameOf(ref: Clause): string | null; onDone(): void }) {
  const [name, setName] = useState(initial ? expressionName(initial) : '');
  const [text, setText] = useState(initial ? formatExpression(stripName(initial), nameOf) : '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const expressions = clauses(stage, 'expressions');
  const initialName = initial ? expressionName(initial) : null;
  // A custom column may use the ones before it, not itself or later ones.
  const usable = columns.filter((c) => c.ref[0] !== 'expression' || expressions.slice(0, index).some((e) => expressionName(e) === c.name));
  const byName = new Map(usable.map((c) => [columnLabel(c, sourceName).toLowerCase(), c]));
  for (const c of usable) if (!byName.has(c.displayName.toLowerCase())) byName.set(c.displayName.toLowerCase(), c);

  const submit = async () => {
    setError(null);
    setNameError(null);
    const trimmed = name.trim();
    if (!trimmed) return setNameError('Name the column');
    if (trimmed !== initialName && expressions.some((e) => expressionName(e) === trimmed))
      return setNameError('A custom column has this name');
    let parsed: unknown;
    try {
      parsed = parseExpression(text, (n) => byName.get(n.toLowerCase())?.ref ?? null);
    } catch (e) {
      return setError(e instanceof ExpressionError ? e.message : String(e));
    }
    const body: Clause = isClause(parsed) ? parsed : clause('value', {}, parsed);
    const named: Clause = [body[0], { ...body[1], 'lib/expression-name': trimmed }, ...body.slice(2)];
    // A renamed column keeps its uses: the other custom columns, filters, metrics, groupings and sorts follow the name.
    const rename = <T,>(c: T): T => (initialName && initialName !== trimmed ? renameExpressionRefs(c, initialName, trimmed) : c);
    const next = rename([...expressions]);
    next[index] = named;
    const changes: Stage = { expressions: next };
    for (const key of ['filters', 'aggregation', 'breakout', 'order-by', 'fields'])
      if (stage[key] !== undefined) changes[key] = rename(stage[key]);
    const changed = updateStage(query, changes, stageIndex);
    // The API says whether the engine can run it (arity, types, functions it lacks): its message goes at the field.
    setChecking(true);
    try {
      await runQuery(queryUntil(changed, 'expressions', 1, stageIndex));
    } catch (e) {
      setChecking(false);
      return setError(e instanceof Error ? e.message : String(e));
    }
    setChecking(false);
    update(changes);
    onDone();
  };

  return (
    <Stack gap="xs" maw={640}>
      <TextInput label="Column name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} />
      <ExpressionInput
        value={text}
        onChange={setText}
        columnNames={[...new Set(usable.map((c) => columnLabel(c, sourceName)))]}
        error={error}
      />
      <Group>
        <Button size="xs" onClick={() => void submit()} loading={checking}>
          {initial ? 'Update column' : 'Add column'}
        </Button>
        <Button size="xs" variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
