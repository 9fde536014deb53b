import { Button, Group, Modal, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useCollectionLevel, type CollectionNode } from '../api/collection';
import { useCurrentUser } from '../api/user';
import { CollectionTree } from '../components/CollectionTree';

/** A chosen collection: its id (`null` is Our analytics) and name. */
export interface PickedCollection {
  id: number | null;
  name: string;
}

export const ROOT: PickedCollection = { id: null, name: 'Our analytics' };

/**
 * A dialog to choose a collection: Our analytics, its tree opened a level at a time, and the person's own collection.
 * `exclude` are collections that cannot be chosen nor opened (those being moved: nothing moves into itself).
 */
export function CollectionPicker({
  title,
  confirmLabel,
  initial = ROOT,
  exclude,
  loading,
  onPick,
  onClose,
}: {
  title: string;
  confirmLabel: string;
  initial?: PickedCollection;
  exclude?: ReadonlySet<number>;
  loading?: boolean;
  onPick(c: PickedCollection): void;
  onClose(): void;
}) {
  const [picked, setPicked] = useState<PickedCollection>(initial);
  const top = useCollectionLevel(null);
  const user = useCurrentUser().data;
  const choice = (c: PickedCollection, label = c.name) => (
    <Button
      variant={picked.id === c.id ? 'light' : 'subtle'}
      color={picked.id === c.id ? undefined : 'gray'}
      aria-pressed={picked.id === c.id}
      justify="flex-start"
      fullWidth
      size="compact-md"
      disabled={c.id !== null && exclude?.has(c.id)}
      onClick={() => setPicked(c)}
    >
      {label}
    </Button>
  );
  const nodes = top.data ?? [];
  // Others' personal collections stay out of a picker: things are moved where their owner works.
  const shown = nodes.filter((c) => c.personal_owner_id === null || c.personal_owner_id === user?.id);
  const render = (c: CollectionNode) =>
    choice({ id: c.id, name: c.name }, c.personal_owner_id === user?.id ? 'Your personal collection' : c.name);
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <Stack gap="sm">
        <ScrollArea.Autosize mah={420} type="auto">
          <div role="group" aria-label="Collections">
            {choice(ROOT)}
            {top.isPending ? (
              <Skeleton h={28} aria-label="Loading the collections" />
            ) : (
              <CollectionTree nodes={shown} render={render} closed={exclude} />
            )}
          </div>
        </ScrollArea.Autosize>
        <Text size="sm" aria-live="polite">
          Chosen: {picked.name}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onPick(picked)} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
