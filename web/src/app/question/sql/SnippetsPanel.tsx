import {
  Alert,
  Button,
  CloseButton,
  Group,
  Modal,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useSaveSnippet, useSnippets, type Snippet } from '../../api/snippet';
import { showApiErrors } from '../../forms/api-errors';

/** The snippets (`GET /api/native-query-snippet`): insert one as `{{snippet: name}}`, edit one, or create one. */
export function SnippetsPanel({ onInsert, onClose }: { onInsert(name: string): void; onClose(): void }) {
  const snippets = useSnippets();
  const [editing, setEditing] = useState<Snippet | 'new' | null>(null);
  return (
    <Paper component="aside" aria-labelledby="snippets-title" withBorder p="sm" w={340} style={{ flex: 'none' }}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id="snippets-title">
          Snippets
        </Title>
        <Group gap={4}>
          <Button size="compact-sm" variant="light" onClick={() => setEditing('new')}>
            New snippet
          </Button>
          <CloseButton aria-label="Close the snippets" onClick={onClose} />
        </Group>
      </Group>
      <ScrollArea.Autosize mah={520} type="auto">
        {snippets.isPending ? (
          <Skeleton h={60} aria-label="Loading the snippets" />
        ) : snippets.isError ? (
          <Alert color="red">{snippets.error.message}</Alert>
        ) : snippets.data.length === 0 ? (
          <Text size="sm">No snippets yet: a snippet is SQL to reuse in many queries.</Text>
        ) : (
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Snippets">
            {snippets.data.map((s) => (
              <li key={s.id}>
                <Group justify="space-between" wrap="nowrap">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={700} truncate>
                      {s.name}
                    </Text>
                    {s.description && (
                      <Text size="xs" c="dimmed" truncate>
                        {s.description}
                      </Text>
                    )}
                  </div>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="default" aria-label={`Insert ${s.name}`} onClick={() => onInsert(s.name)}>
                      Insert
                    </Button>
                    <Button size="compact-xs" variant="subtle" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s)}>
                      Edit
                    </Button>
                  </Group>
                </Group>
              </li>
            ))}
          </Stack>
        )}
      </ScrollArea.Autosize>
      {editing && <SnippetForm snippet={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Paper>
  );
}

function SnippetForm({ snippet, onClose }: { snippet: Snippet | null; onClose(): void }) {
  const save = useSaveSnippet();
  const [other, setOther] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: snippet?.name ?? '', description: snippet?.description ?? '', content: snippet?.content ?? '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter a name for the snippet.'),
      content: (v) => (v.trim() ? null : 'Enter the SQL of the snippet.'),
    },
  });
  const title = snippet ? `Edit ${snippet.name}` : 'New snippet';
  const submit = form.onSubmit(async ({ name, description, content }) => {
    setOther(null);
    try {
      await save.mutateAsync({ id: snippet?.id, body: { name: name.trim(), description: description.trim() || null, content } });
      onClose();
    } catch (e) {
      showApiErrors(form, e, { onOther: setOther });
    }
  });
  return (
    <Modal opened onClose={onClose} title={title}>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="sm">
          {other && (
            <Alert color="red" role="alert">
              {other}
            </Alert>
          )}
          <TextInput label="Snippet name" data-autofocus {...form.getInputProps('name')} />
          <Textarea
            label="SQL"
            autosize
            minRows={3}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('content')}
          />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
