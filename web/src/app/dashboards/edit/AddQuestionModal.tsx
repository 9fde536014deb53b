import { Alert, Button, Loader, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { getCard, useCardSearch } from '../../api/dashboard-edit';
import type { DashcardCard } from '../../api/dashboard-view';

/** "Add a question": saved questions and models, searched by name; the chosen one is loaded whole for its dashcard. */
export function AddQuestionModal(props: { onPick: (card: DashcardCard) => void; onClose: () => void }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 250);
  const found = useCardSearch(debounced.trim());
  const [loading, setLoading] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pick = async (id: number) => {
    setLoading(id);
    setError(null);
    try {
      props.onPick(await getCard(id));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setLoading(null);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title="Add a question" size="lg">
      <Stack>
        <TextInput label="Search questions and models" value={q} onChange={(e) => setQ(e.currentTarget.value)} data-autofocus />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {found.isPending && <Loader size="sm" aria-label="Searching" />}
        {found.error && (
          <Alert color="red" role="alert">
            {found.error.message}
          </Alert>
        )}
        <ScrollArea.Autosize mah={400}>
          <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Questions">
            {(found.data?.data ?? []).map((c) => (
              <li key={`${c.model}-${c.id}`}>
                <Button
                  variant="subtle"
                  fullWidth
                  justify="flex-start"
                  loading={loading === c.id}
                  onClick={() => void pick(c.id)}
                  rightSection={
                    <Text size="xs" c="dimmed">
                      {c.model === 'dataset' ? 'Model' : 'Question'}
                      {c.collection?.name ? ` · ${c.collection.name}` : ''}
                    </Text>
                  }
                >
                  {c.name}
                </Button>
              </li>
            ))}
          </Stack>
          {found.data && found.data.data.length === 0 && <Text c="dimmed">No questions match.</Text>}
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}
