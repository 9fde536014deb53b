import { Button, Drawer, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useUpdateCard, type Card } from '../api/card';
import { notifySuccess } from '../notify';

/**
 * A model's column metadata: each column's display name, saved as the card's `result_metadata`
 * (`PUT /api/card/:id`); questions built on the model show the names given here.
 */
export function ModelColumnsDrawer({ card, onClose, onSaved }: { card: Card; onClose(): void; onSaved(): void }) {
  const columns = card.result_metadata ?? [];
  const [names, setNames] = useState<string[]>(() => columns.map((c) => String(c.display_name ?? c.name)));
  const update = useUpdateCard(card.id);
  const save = () =>
    update.mutate(
      { result_metadata: columns.map((c, i) => ({ ...c, display_name: names[i].trim() || String(c.name) })) },
      { onSuccess: () => (notifySuccess('The column metadata is saved.'), onClose(), onSaved()) },
    );
  return (
    <Drawer opened closeButtonProps={{ 'aria-label': 'Close' }} onClose={onClose} title="Column metadata" position="right" size="md">
      <Stack gap="sm">
        {columns.length === 0 && <Text>Run the model once to see its columns.</Text>}
        {columns.map((c, i) => (
          <TextInput
            key={String(c.name)}
            label={`Display name of ${String(c.name)}`}
            value={names[i]}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setNames((old) => old.map((n, j) => (j === i ? v : n)));
            }}
          />
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={update.isPending} disabled={columns.length === 0}>
            Save
          </Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
