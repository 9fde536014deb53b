import { ActionIcon, Badge, Button, Group, Menu, TextInput, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useBookmarks, useToggleBookmark } from '../api/bookmark';
import { useUpdateCard, type Card } from '../api/card';
import { useArchiveItems, useMoveItems } from '../api/item';
import { CollectionPicker } from '../collections/CollectionPicker';
import { notifySuccess } from '../notify';
import type { Draft } from './draft';
import { AddToDashboardModal } from './AddToDashboardModal';
import { ModelColumnsDrawer } from './ModelColumnsDrawer';
import { RevisionDrawer } from './RevisionDrawer';
import { SaveDialog } from './SaveDialog';
import { useCurrentUser } from '../api/user';
import { questionTarget } from '../dashboards/sharing/target';

const SharingModal = lazy(async () => ({ default: (await import('../dashboards/sharing/SharingModal')).SharingModal }));

type Dialog = 'save' | 'save-as' | 'history' | 'move' | 'columns' | 'dashboard' | null | 'share';

const KIND = { question: 'question', model: 'model', metric: 'metric' } as const;

/** The question's name (renamed in place), Run or Cancel, Save, and the menu of what can be done with a saved card. */
export function QuestionHeader(props: {
  card: Card | null;
  draft: Draft;
  dirty: boolean;
  running: boolean;
  canRun: boolean;
  onChange(patch: Partial<Draft>): void;
  onRun(): void;
  onCancel(): void;
  onReload(): void;
  /** Called before the page navigates away on purpose (after a save as new, a move to the trash). */
  allowLeave(): void;
}) {
  const { card, draft } = props;
  const [dialog, setDialog] = useState<Dialog>(null);
  const navigate = useNavigate();
  const update = useUpdateCard(card?.id ?? 0);
  const move = useMoveItems();
  const archive = useArchiveItems();
  const bookmarks = useBookmarks();
  const toggleBookmark = useToggleBookmark();
  const bookmarked = card !== null && (bookmarks.data ?? []).some((b) => b.type === 'card' && b.item_id === card.id);
  const kind = KIND[draft.type];
  const admin = useCurrentUser().data?.is_superuser === true;
  const title = draft.name || (card ? card.name : `New ${kind}`);

  return (
    <header>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <NameField
            title={title}
            onRename={(name) => {
              props.onChange({ name });
              // A saved card's new name is saved at once (as in Metabase); a new question keeps it for the save dialog.
              if (card && name !== card.name) update.mutate({ name });
            }}
          />
          {draft.type !== 'question' && <Badge variant="light">{draft.type === 'model' ? 'Model' : 'Metric'}</Badge>}
          {card && props.dirty && <Badge color="gray">Edited</Badge>}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {props.running ? (
            <Button color="red" variant="light" onClick={props.onCancel}>
              Cancel
            </Button>
          ) : (
            <Button variant="default" onClick={props.onRun} disabled={!props.canRun}>
              Run
            </Button>
          )}
          <Button onClick={() => setDialog('save')} disabled={card !== null && (!props.dirty || !card.can_write)}>
            Save
          </Button>
          {card && (
            <Menu position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="subtle" size="lg" aria-label={`More actions for this ${kind}`}>
                  ⋯
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setDialog('history')}>Revision history</Menu.Item>
                {card.type === 'question' && card.can_write && (
                  <Menu.Item
                    onClick={() =>
                      // The page moves to /model/… by itself once the card says it is one (QuestionPage).
                      // (The header is drawn anew for the model, so no per-call onSuccess: the promise says it. Errors go to the toaster.)
                      update
                        .mutateAsync({ type: 'model' })
                        .then(() => notifySuccess('This question is now a model.'))
                        .catch(() => undefined)
                    }
                  >
                    Turn into a model
                  </Menu.Item>
                )}
                {card.type === 'model' && card.can_write && (
                  <Menu.Item onClick={() => setDialog('columns')}>Edit column metadata</Menu.Item>
                )}
                <Menu.Item onClick={() => setDialog('save-as')}>Duplicate</Menu.Item>
                {card.can_write && <Menu.Item onClick={() => setDialog('move')}>Move</Menu.Item>}
                <Menu.Item onClick={() => toggleBookmark.mutate({ type: 'card', id: card.id, on: !bookmarked })}>
                  {bookmarked ? 'Remove from bookmarks' : 'Bookmark'}
                </Menu.Item>
                <Menu.Item onClick={() => setDialog('dashboard')}>Add to a dashboard</Menu.Item>
                {admin && card.type === 'question' && <Menu.Item onClick={() => setDialog('share')}>Sharing and embedding</Menu.Item>}
                {card.type !== 'metric' && card.dataset_query?.type === 'query' && (
                  // An automatic dashboard of the saved question or model (Metabase's path; the x-ray page).
                  <Menu.Item onClick={() => navigate(`/auto/dashboard/${card.type === 'model' ? 'model' : 'question'}/${card.id}`)}>
                    X-ray this {kind}
                  </Menu.Item>
                )}
                {card.can_write && (
                  <Menu.Item
                    color="red"
                    onClick={() =>
                      archive.mutate(
                        { items: [{ model: 'card', id: card.id, name: card.name }], archived: true },
                        {
                          onSuccess: () => {
                            props.allowLeave();
                            navigate(card.collection_id ? `/collection/${card.collection_id}` : '/collection/root');
                          },
                        },
                      )
                    }
                  >
                    Move to trash
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      {(dialog === 'save' || dialog === 'save-as') && (
        <SaveDialog
          card={card}
          draft={draft}
          asNew={dialog === 'save-as'}
          onClose={() => setDialog(null)}
          onSaved={props.onReload}
          beforeOpen={props.allowLeave}
        />
      )}
      {dialog === 'history' && card && <RevisionDrawer card={card} onClose={() => setDialog(null)} onReverted={props.onReload} />}
      {dialog === 'dashboard' && card && <AddToDashboardModal card={card} onClose={() => setDialog(null)} beforeLeave={props.allowLeave} />}
      {dialog === 'columns' && card && <ModelColumnsDrawer card={card} onClose={() => setDialog(null)} onSaved={props.onReload} />}
      {dialog === 'share' && card && (
        <Suspense fallback={null}>
          <SharingModal target={questionTarget(card)} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {dialog === 'move' && card && (
        <CollectionPicker
          title={`Move ${card.name}`}
          confirmLabel="Move"
          loading={move.isPending}
          onClose={() => setDialog(null)}
          onPick={(c) =>
            move.mutate(
              { items: [{ model: 'card', id: card.id, name: card.name }], to: c.id },
              { onSuccess: () => (setDialog(null), props.onReload()) },
            )
          }
        />
      )}
    </header>
  );
}

/** The name as the page's heading; "Rename" turns it into a field (Enter or leaving it keeps the new name, Escape not). */
function NameField({ title, onRename }: { title: string; onRename(name: string): void }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null)
    return (
      <TextInput
        aria-label="Name"
        value={editing}
        autoFocus
        onChange={(e) => setEditing(e.currentTarget.value)}
        onBlur={() => {
          if (editing.trim()) onRename(editing.trim());
          setEditing(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') setEditing(null);
        }}
      />
    );
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Title order={1} size="h3" lineClamp={1}>
        {title}
      </Title>
      <ActionIcon variant="subtle" aria-label="Rename" onClick={() => setEditing(title)}>
        ✎
      </ActionIcon>
    </Group>
  );
}
