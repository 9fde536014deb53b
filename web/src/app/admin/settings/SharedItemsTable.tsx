import { Anchor, Button, Loader, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog';

export interface SharedItem {
  id: number;
  name: string;
  /** The shared page's path, when it has one to show (a public link). */
  shared?: string;
}

/**
 * A list of shared questions or dashboards (public links, static embeds): each with a link to it, what is shared,
 * and, when `revoke` is given, a button that asks first and then stops the sharing.
 */
export function SharedItemsTable({
  caption,
  kind,
  items,
  loading,
  error,
  empty,
  pathOf,
  revoke,
}: {
  caption: string;
  kind: 'question' | 'dashboard';
  items: SharedItem[] | undefined;
  loading: boolean;
  error: Error | null;
  empty: string;
  pathOf: (item: SharedItem) => string;
  revoke?: { label: string; warning: (name: string) => ReactNode; run: (id: number) => Promise<unknown> };
}) {
  const [target, setTarget] = useState<SharedItem | null>(null);
  const [busy, setBusy] = useState(false);
  if (loading) return <Loader size="sm" aria-label={`Loading ${caption.toLowerCase()}`} />;
  if (error) return <Text c="var(--mantine-color-error)">{error.message}</Text>;
  if (!items?.length) return <Text c="dimmed">{empty}</Text>;

  const confirm = async () => {
    if (!target || !revoke) return;
    setBusy(true);
    try {
      await revoke.run(target.id);
      setTarget(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Table withTableBorder striped>
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            {items.some((i) => i.shared) && <Table.Th>Link</Table.Th>}
            {revoke && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Anchor component={Link} to={pathOf(item)}>
                  {item.name}
                </Anchor>
              </Table.Td>
              {items.some((i) => i.shared) && (
                <Table.Td>
                  {item.shared && (
                    <Anchor href={item.shared} target="_blank" rel="noreferrer">
                      {item.shared}
                    </Anchor>
                  )}
                </Table.Td>
              )}
              {revoke && (
                <Table.Td>
                  <Button size="xs" variant="default" onClick={() => setTarget(item)} aria-label={`${revoke.label} for ${item.name}`}>
                    {revoke.label}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {revoke && (
        <ConfirmDialog
          opened={target !== null}
          title={`${revoke.label}?`}
          confirmLabel={revoke.label}
          onConfirm={() => void confirm()}
          onClose={() => setTarget(null)}
          loading={busy}
        >
          {target ? revoke.warning(`${kind === 'question' ? 'the question' : 'the dashboard'} ${target.name}`) : ''}
        </ConfirmDialog>
      )}
    </>
  );
}
