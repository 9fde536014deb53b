import { Alert, Button, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateCard, useUpdateCard, type Card } from '../api/card';
import { CollectionPicker, ROOT, type PickedCollection } from '../collections/CollectionPicker';
import { showApiErrors } from '../forms/api-errors';
import { notifySuccess } from '../notify';
import { cardPath, type Draft } from './draft';

/**
 * Save: a new question gets a name, a description and a collection; an edited saved question replaces the original
 * (`PUT /api/card/:id`, a new revision) or is saved as a new one (`POST /api/card`). Either opens the saved card.
 */
export function SaveDialog({
  card,
  draft,
  asNew,
  onClose,
  onSaved,
  beforeOpen,
}: {
  card: Card | null;
  draft: Draft;
  asNew: boolean;
  onClose(): void;
  onSaved(): void;
  /** Before the new card opens: the page being left holds nothing unsaved any more. */
  beforeOpen(): void;
}) {
  const navigate = useNavigate();
  const create = useCreateCard();
  const update = useUpdateCard(card?.id ?? 0);
  const [mode, setMode] = useState<'replace' | 'new'>(card && !asNew ? 'replace' : 'new');
  const [where, setWhere] = useState<PickedCollection>(card?.collection ? { id: card.collection.id, name: card.collection.name } : ROOT);
  const [picking, setPicking] = useState(false);
  const [other, setOther] = useState<string | null>(null);
  const kind = draft.type === 'model' ? 'model' : draft.type === 'metric' ? 'metric' : 'question';
  const form = useForm({
    initialValues: { name: card ? (asNew ? `${draft.name} (copy)` : draft.name) : draft.name, description: draft.description ?? '' },
    validate: { name: (v) => (mode === 'new' && !v.trim() ? `Enter a name for the ${kind}.` : null) },
  });
  const submit = form.onSubmit(async ({ name, description }) => {
    setOther(null);
    const content = {
      display: draft.display,
      visualization_settings: draft.visualization_settings,
      dataset_query: draft.dataset_query,
    };
    try {
      if (mode === 'replace' && card) {
        const saved = await update.mutateAsync(content);
        notifySuccess(`${saved.name} is saved.`);
        onClose();
        onSaved();
      } else {
        const saved = await create.mutateAsync({
          ...content,
          name: name.trim(),
          description: description.trim() || null,
          type: draft.type,
          collection_id: where.id,
        });
        notifySuccess(`${saved.name} is saved.`);
        onClose();
        beforeOpen();
        navigate(cardPath(saved));
      }
    } catch (e) {
      showApiErrors(form, e, { onOther: setOther });
    }
  });
  const title = card && !asNew ? `Save changes to ${card.name}` : `Save new ${kind}`;
  return (
    <>
      <Modal opened={!picking} onClose={onClose} title={title}>
        <form onSubmit={submit} noValidate aria-label={title}>
          <Stack gap="md">
            {other && (
              <Alert color="red" variant="light" role="alert">
                {other}
              </Alert>
            )}
            {card && !asNew && (
              <Radio.Group label="How to save" value={mode} onChange={(v) => setMode(v === 'new' ? 'new' : 'replace')}>
                <Stack gap="xs" mt="xs">
                  <Radio value="replace" label={`Replace original ${kind}, "${card.name}"`} />
                  <Radio value="new" label={`Save as new ${kind}`} />
                </Stack>
              </Radio.Group>
            )}
            {mode === 'new' && (
              <>
                <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
                <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
                <Group gap="xs" align="center">
                  <Text size="sm">
                    In <strong>{where.name}</strong>
                  </Text>
                  <Button variant="subtle" size="compact-sm" onClick={() => setPicking(true)}>
                    Change collection
                  </Button>
                </Group>
              </>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending || update.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {picking && (
        <CollectionPicker
          title={`Where the ${kind} goes`}
          confirmLabel="Choose"
          initial={where}
          onClose={() => setPicking(false)}
          onPick={(c) => {
            setWhere(c);
            setPicking(false);
          }}
        />
      )}
    </>
  );
}
