import { Loader, Paper, Select, Text } from '@mantine/core';
import { useTableFields } from '../../api/dashboard-edit';
import type { DashboardParameter, DashcardData } from '../../api/dashboard-view';
import { mappingOf, targetOptions } from './mapping';

/** A question card while a filter is being wired: which of its columns the filter narrows (or none). */
export function MappingCard(props: { dashcard: DashcardData; parameter: DashboardParameter; onTarget: (target: unknown | null) => void }) {
  const card = props.dashcard.card!;
  const table = useTableFields(card.dataset_query?.type === 'native' ? null : card.table_id);
  const options = targetOptions(card, table.data, props.parameter);
  const current = mappingOf(props.dashcard, props.parameter.id);
  const value = current ? JSON.stringify(current.target) : null;
  // A saved target not among the options (a column renamed since) stays choosable.
  const all =
    value && !options.some((o) => o.value === value) ? [...options, { value, label: 'Current column', suggested: true }] : options;
  const item = (o: { value: string; label: string }) => ({ value: o.value, label: o.label });
  const suggested = all.filter((o) => o.suggested).map(item);
  const others = all.filter((o) => !o.suggested).map(item);
  const data =
    suggested.length && others.length
      ? [
          { group: 'Suggested', items: suggested },
          { group: 'Other columns', items: others },
        ]
      : all.map(item);
  return (
    <Paper withBorder radius="md" p="sm" h="100%" component="section" aria-label={card.name} bg="var(--mantine-color-blue-light)">
      <Text fw={700} size="sm" mb="xs">
        {card.name}
      </Text>
      {table.isPending && card.dataset_query?.type !== 'native' && typeof card.table_id === 'number' ? (
        <Loader size="xs" aria-label="Loading the columns" />
      ) : options.length === 0 ? (
        <Text size="sm">This question has no column a filter can use.</Text>
      ) : (
        <Select
          label={`Column filtered by ${props.parameter.name}`}
          placeholder="Choose a column"
          data={data}
          value={value}
          clearable
          searchable
          comboboxProps={{ withinPortal: true }}
          onChange={(v) => props.onTarget(v ? (JSON.parse(v) as unknown) : null)}
        />
      )}
    </Paper>
  );
}
