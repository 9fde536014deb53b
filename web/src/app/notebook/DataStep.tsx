import { Alert, Group, Loader, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useDatabasesWithTables, useSourceCards } from './api';
import { newQuery, firstStage } from './mbql';
import type { Mbql5Query } from './types';

/**
 * The data step: a database and one of its tables, or a saved question or model (`source-card`, searched as the
 * analyst types). Picking other data starts the question over, as the later steps' columns would not exist there.
 */
export function DataStep({ query, sourceName, onChange }: { query: Mbql5Query | null; sourceName: string; onChange(q: Mbql5Query): void }) {
  const databases = useDatabasesWithTables();
  const [database, setDatabase] = useState<number | null>(query?.database ?? null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const cards = useSourceCards(debounced);
  const stage = query ? firstStage(query) : {};
  const table = typeof stage['source-table'] === 'number' ? stage['source-table'] : null;
  const card = typeof stage['source-card'] === 'number' ? stage['source-card'] : null;
  const dbId = database ?? query?.database ?? null;

  if (databases.isPending) return <Loader size="sm" aria-label="Loading databases" />;
  if (databases.isError) return <Alert color="red">{databases.error.message}</Alert>;
  const tables = databases.data.find((d) => d.id === dbId)?.tables ?? [];
  const cardOptions = (cards.data ?? [])
    .filter((c) => c.database_id !== null)
    .map((c) => ({ value: String(c.id), label: `${c.name} (${c.model === 'dataset' ? 'model' : 'question'})` }));
  // The chosen card stays in the list while another search is shown, so the Select keeps its label.
  if (card !== null && !cardOptions.some((o) => o.value === String(card))) cardOptions.unshift({ value: String(card), label: sourceName });

  return (
    <Group align="flex-end" wrap="wrap">
      <Select
        label="Database"
        placeholder="Pick a database"
        data={databases.data.map((d) => ({ value: String(d.id), label: d.name }))}
        value={dbId === null ? null : String(dbId)}
        onChange={(v) => setDatabase(v === null ? null : Number(v))}
        allowDeselect={false}
      />
      <Select
        label="Table"
        placeholder={dbId === null ? 'Pick a database first' : 'Pick a table'}
        searchable
        disabled={dbId === null}
        data={tables.map((t) => ({ value: String(t.id), label: t.display_name }))}
        value={table === null ? null : String(table)}
        nothingFoundMessage="No table of that name"
        onChange={(v) => v !== null && dbId !== null && onChange(newQuery(dbId, { table: Number(v) }))}
        allowDeselect={false}
      />
      <Text size="sm" pb={8}>
        or
      </Text>
      <Select
        label="Saved question or model"
        placeholder="Search saved questions and models"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        data={cardOptions}
        value={card === null ? null : String(card)}
        nothingFoundMessage={cards.isFetching ? 'Searching…' : 'Nothing found'}
        onChange={(v) => {
          const found = cards.data?.find((c) => String(c.id) === v);
          if (found?.database_id) onChange(newQuery(found.database_id, { card: found.id }));
        }}
        allowDeselect={false}
        miw={280}
      />
    </Group>
  );
}
