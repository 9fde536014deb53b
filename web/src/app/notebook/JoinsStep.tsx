import { ActionIcon, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useDatabasesWithTables, useSourceCards, useTableMetadata } from './api';
import { sourceColumns, findColumn, refTo, suggestCondition, type Column } from './columns';
import { columnOptions, type StepProps } from './context';
import { clause, joinsOf, withoutDependents, type Join, type JoinStrategy } from './mbql';

export const STRATEGIES: Array<{ value: JoinStrategy; label: string }> = [
  { value: 'left-join', label: 'Left outer join' },
  { value: 'inner-join', label: 'Inner join' },
  { value: 'right-join', label: 'Right outer join' },
  { value: 'full-join', label: 'Full outer join' },
];

/** Joins: each another table of the database, its type and the condition `left column = right column`. */
export function JoinsStep(props: StepProps) {
  const { stage, update, label } = props;
  const joins = joinsOf(stage);
  const [adding, setAdding] = useState(false);
  const joinedLabel = (ref: unknown) => {
    const c = findColumn(props.joinedColumns, ref);
    return c ? label(c) : '?';
  };
  return (
    <Stack gap="xs">
      {joins.length > 0 && (
        <ul aria-label="Joins" style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
          {joins.map((j, i) => {
            const cond = j.conditions?.[0];
            const strategy = STRATEGIES.find((s) => s.value === j.strategy)?.label ?? j.strategy;
            const text = `${strategy} ${j.alias}${cond ? ` on ${joinedLabel(cond[2])} = ${joinedLabel(cond[3])}` : ''}`;
            return (
              <li key={j.alias}>
                <Group gap="xs">
                  <Text size="sm">{text}</Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove join ${j.alias}`}
                    onClick={() =>
                      update({ ...withoutDependents(stage, (r) => r[1]['join-alias'] === j.alias), joins: joins.filter((_, k) => k !== i) })
                    }
                  >
                    ×
                  </ActionIcon>
                </Group>
              </li>
            );
          })}
        </ul>
      )}
      {adding ? (
        <JoinForm
          {...props}
          onDone={(join) => {
            if (join) update({ joins: [...joins, join] });
            setAdding(false);
          }}
        />
      ) : (
        <Group>
          <Button variant="light" size="xs" onClick={() => setAdding(true)}>
            Join data
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function JoinForm({ query, stage, joinedColumns, label, onDone }: StepProps & { onDone(join: Join | null): void }) {
  const databases = useDatabasesWithTables();
  const cards = useSourceCards('');
  const [strategy, setStrategy] = useState<JoinStrategy>('left-join');
  // A table's id, or `card__<id>` for a saved question or model (the metadata endpoint's names for both).
  const [target, setTarget] = useState<string | null>(null);
  const [left, setLeft] = useState<string | null>(null);
  const [right, setRight] = useState<string | null>(null);
  const isCard = target?.startsWith('card__') ?? false;
  const meta = useTableMetadata(target === null ? undefined : isCard ? target : Number(target));
  const tables = databases.data?.find((d) => d.id === query.database)?.tables ?? [];
  const sameDatabase = (cards.data ?? []).filter((c) => c.database_id === query.database);
  const taken = new Set(joinsOf(stage).map((j) => j.alias));
  const name = isCard
    ? (sameDatabase.find((c) => `card__${c.id}` === target)?.name ?? '')
    : (tables.find((t) => String(t.id) === target)?.display_name ?? '');
  let alias = name;
  for (let n = 2; taken.has(alias); n++) alias = `${name} ${n}`;
  const rightColumns: Column[] = meta.data ? sourceColumns(meta.data, isCard, alias) : [];
  const targets = [
    { group: 'Tables', items: tables.map((t) => ({ value: String(t.id), label: t.display_name })) },
    {
      group: 'Saved questions and models',
      items: sameDatabase.map((c) => ({ value: `card__${c.id}`, label: `${c.name} (${c.model === 'dataset' ? 'model' : 'question'})` })),
    },
  ].filter((g) => g.items.length > 0);

  const pickTable = (v: string | null) => {
    setTarget(v);
    setLeft(null);
    setRight(null);
  };
  // Foreign keys suggest the condition, in either direction, once the joined table's columns are known.
  const suggested = suggestCondition(joinedColumns, rightColumns);
  const leftKey = left ?? suggested?.[0].key ?? null;
  const rightKey = right ?? suggested?.[1].key ?? null;
  const lhs = joinedColumns.find((c) => c.key === leftKey);
  const rhs = rightColumns.find((c) => c.key === rightKey);

  const submit = () => {
    if (!target || !lhs || !rhs) return;
    const source = isCard ? { 'source-card': Number(target.slice('card__'.length)) } : { 'source-table': Number(target) };
    onDone({
      'lib/type': 'mbql/join',
      stages: [{ 'lib/type': 'mbql.stage/mbql', ...source }],
      conditions: [clause('=', {}, refTo(lhs), refTo(rhs))],
      alias,
      strategy,
      fields: 'all',
    });
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Join type"
          data={STRATEGIES}
          value={strategy}
          onChange={(v) => v && setStrategy(v as JoinStrategy)}
          allowDeselect={false}
        />
        <Select
          label="Table to join"
          searchable
          placeholder="Pick a table or a saved question"
          data={targets}
          value={target}
          onChange={pickTable}
        />
        <Select
          label="Left column"
          searchable
          data={columnOptions(joinedColumns, label)}
          value={leftKey}
          onChange={setLeft}
          disabled={!target}
        />
        <Text pb={8} aria-hidden>
          =
        </Text>
        <Select
          label="Right column"
          searchable
          data={columnOptions(rightColumns, label)}
          value={rightKey}
          onChange={setRight}
          disabled={!meta.data}
        />
      </Group>
      <Group>
        <Button size="xs" onClick={submit} disabled={!lhs || !rhs}>
          Add join
        </Button>
        <Button size="xs" variant="default" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
