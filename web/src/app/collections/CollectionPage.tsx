import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  Pagination,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { bookmarkType, useBookmarks, useToggleBookmark } from '../api/bookmark';
import { isApiError } from '../api/client';
import {
  collectionPath,
  useCollection,
  useCollectionItems,
  type Collection,
  type CollectionId,
  type CollectionItem,
  type ItemsQuery,
} from '../api/collection';
import { itemPath, PINNABLE, useArchiveItems, useMoveItems, usePinItem } from '../api/item';
import { useCurrentUser } from '../api/user';
import { NotFound } from '../components/NotFound';
import { usePageTitle } from '../components/PageTitle';
import { notifySuccess } from '../notify';
import { CollectionActions } from './CollectionActions';
import { CollectionPicker } from './CollectionPicker';
import { PinnedPreview } from './PinnedPreview';
import { formatDate, modelLabel, MOVABLE } from './items';

const PAGE_SIZE = 50;
type SortColumn = NonNullable<ItemsQuery['sort_column']>;
const COLUMNS: Array<{ key: SortColumn; label: string }> = [
  { key: 'model', label: 'Type' },
  { key: 'name', label: 'Name' },
  { key: 'last_edited_by', label: 'Last edited by' },
  { key: 'last_edited_at', label: 'Last edited at' },
];

const keyOf = (i: Pick<CollectionItem, 'model' | 'id'>) => `${i.model}-${i.id}`;

/** `/collection/:id-slug` and `/collection/root`: the collection's pinned items, then its items, sortable and selectable. */
export function CollectionPage() {
  const param = useParams().slug ?? 'root';
  const id: CollectionId | null = param === 'root' ? 'root' : /^\d+/.test(param) ? Number(/^\d+/.exec(param)![0]) : null;
  const collection = useCollection(id);
  const user = useCurrentUser().data;
  const c = collection.data;
  const name = c && c.id !== 'root' && c.personal_owner_id === user?.id ? 'Your personal collection' : c?.name;
  usePageTitle(name ?? 'Collection');
  if (id === null || (isApiError(collection.error) && collection.error.status === 404)) return <NotFound />;
  if (collection.error) throw collection.error;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          {c && c.effective_ancestors.length > 0 && (
            <Box component="nav" aria-label="Breadcrumb">
              <Breadcrumbs>
                {c.effective_ancestors.map((a) => (
                  <Anchor key={a.id} component={Link} to={collectionPath(a)}>
                    {a.name}
                  </Anchor>
                ))}
                <span aria-current="page">{name}</span>
              </Breadcrumbs>
            </Box>
          )}
          <Title order={1}>{name ?? 'Collection'}</Title>
          {c?.description && <Text c="dimmed">{c.description}</Text>}
        </Stack>
        {c && c.id !== 'root' && <CollectionActions collection={c as Collection & { id: number }} />}
      </Group>
      {c?.archived && (
        <Alert color="yellow" variant="light" title="This collection is in the trash">
          Restore it from the{' '}
          <Anchor component={Link} to="/trash">
            trash
          </Anchor>{' '}
          to change what is in it.
        </Alert>
      )}
      <Pinned id={id} canWrite={!!c?.can_write && !c.archived} />
      <Items id={id} canWrite={!!c?.can_write && !c.archived} />
    </Stack>
  );
}

/** Pinned items, shown apart as cards, as the collection's owners chose to put them first. */
function Pinned({ id, canWrite }: { id: CollectionId; canWrite: boolean }) {
  const pinned = useCollectionItems(id, { pinned_state: 'is_pinned', sort_column: 'name', sort_direction: 'asc' });
  const pin = usePinItem();
  const items = pinned.data?.data ?? [];
  if (!items.length) return null;
  return (
    <section aria-labelledby="pinned-title">
      <Title order={2} fz="h4" id="pinned-title" mb="xs">
        Pinned
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {items.map((i) => (
          <li key={keyOf(i)}>
            <Card withBorder padding="md" h="100%" component="article" aria-label={i.name}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  {modelLabel(i.model)}
                  {i.display ? ` · ${i.display}` : ''}
                </Text>
                {canWrite && (
                  <Tooltip label="Unpin">
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="sm"
                      aria-label={`Unpin ${i.name}`}
                      loading={pin.isPending && pin.variables?.item.id === i.id}
                      onClick={() => pin.mutate({ item: i, pinned: false }, { onSuccess: () => notifySuccess(`${i.name} is unpinned.`) })}
                    >
                      <span aria-hidden="true">✕</span>
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
              <Anchor component={Link} to={itemPath(i)} fw={700}>
                {i.name}
              </Anchor>
              {i.description && (
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {i.description}
                </Text>
              )}
              {(i.model === 'card' || i.model === 'metric') && <PinnedPreview id={i.id} name={i.name} />}
            </Card>
          </li>
        ))}
      </SimpleGrid>
    </section>
  );
}

function Items({ id, canWrite }: { id: CollectionId; canWrite: boolean }) {
  const [params, setParams] = useSearchParams();
  const sort = (params.get('sort') as SortColumn | null) ?? 'name';
  const dir = params.get('dir') === 'desc' ? 'desc' : 'asc';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query: ItemsQuery = {
    pinned_state: 'is_not_pinned',
    sort_column: sort,
    sort_direction: dir,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const items = useCollectionItems(id, query);
  const [selected, setSelected] = useState<Map<string, CollectionItem>>(new Map());
  const [moving, setMoving] = useState<CollectionItem[] | null>(null);
  const bookmarks = useBookmarks();
  const toggleBookmark = useToggleBookmark();
  const move = useMoveItems();
  const archive = useArchiveItems();
  const pin = usePinItem();
  const rows = items.data?.data ?? [];
  const total = items.data?.total ?? 0;
  const marked = new Set(bookmarks.data?.map((b) => `${b.type}-${b.item_id}`));
  const selectable = rows.filter((r) => MOVABLE.has(r.model) && canWrite);

  const setSort = (col: SortColumn) => {
    const next = new URLSearchParams(params);
    next.set('sort', col);
    next.set('dir', sort === col && dir === 'asc' ? 'desc' : 'asc');
    next.delete('page');
    setParams(next, { replace: true });
  };
  const toggle = (i: CollectionItem, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(keyOf(i), i);
    else next.delete(keyOf(i));
    setSelected(next);
  };
  const trash = (list: CollectionItem[]) =>
    archive.mutate(
      { items: list, archived: true },
      {
        onSuccess: () => {
          notifySuccess(list.length === 1 ? `${list[0].name} is in the trash.` : `${list.length} items are in the trash.`);
          setSelected(new Map());
        },
      },
    );
  const chosen = [...selected.values()];
  const allOn = selectable.length > 0 && selectable.every((r) => selected.has(keyOf(r)));

  return (
    <section aria-labelledby="items-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="h4" id="items-title">
          Items
        </Title>
        {chosen.length > 0 && (
          <Group gap="xs" role="toolbar" aria-label="Selected items">
            <Text size="sm">{chosen.length} selected</Text>
            <Button size="compact-sm" variant="light" onClick={() => setMoving(chosen)}>
              Move
            </Button>
            <Button size="compact-sm" variant="light" color="red" loading={archive.isPending} onClick={() => trash(chosen)}>
              Move to trash
            </Button>
          </Group>
        )}
      </Group>
      {items.isError && (
        <Alert color="red" variant="light" role="alert" title="The items could not be loaded">
          {items.error.message}
        </Alert>
      )}
      {items.isPending ? (
        <Skeleton h={200} aria-label="Loading the items" />
      ) : rows.length === 0 ? (
        <Text c="dimmed">Nothing here yet.</Text>
      ) : (
        <Table highlightOnHover aria-label="Items" aria-busy={items.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                {canWrite && (
                  <Checkbox
                    aria-label="Select all"
                    checked={allOn}
                    indeterminate={!allOn && chosen.length > 0}
                    onChange={(e) => setSelected(new Map(e.currentTarget.checked ? selectable.map((r) => [keyOf(r), r]) : []))}
                  />
                )}
              </Table.Th>
              {COLUMNS.map((col) => (
                <Table.Th key={col.key} aria-sort={sort === col.key ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                  <UnstyledButton onClick={() => setSort(col.key)} fw={700} fz="sm">
                    {col.label}
                    <span aria-hidden="true">{sort === col.key ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </UnstyledButton>
                </Table.Th>
              ))}
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => {
              const bt = bookmarkType(i.model);
              const isMarked = bt !== null && marked.has(`${bt}-${i.id}`);
              const movable = MOVABLE.has(i.model) && canWrite;
              return (
                <Table.Tr key={keyOf(i)}>
                  <Table.Td>
                    {movable && (
                      <Checkbox
                        aria-label={`Select ${i.name}`}
                        checked={selected.has(keyOf(i))}
                        onChange={(e) => toggle(i, e.currentTarget.checked)}
                      />
                    )}
                  </Table.Td>
                  <Table.Td>{modelLabel(i.model)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={itemPath(i)}>
                      {i.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{i.last_edited_by ?? ''}</Table.Td>
                  <Table.Td>{formatDate(i.last_edited_at)}</Table.Td>
                  <Table.Td>
                    {(bt || movable) && (
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${i.name}`}>
                            <span aria-hidden="true">⋯</span>
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          {bt && (
                            <Menu.Item onClick={() => toggleBookmark.mutate({ type: bt, id: i.id, on: !isMarked })}>
                              {isMarked ? 'Remove bookmark' : 'Bookmark'}
                            </Menu.Item>
                          )}
                          {movable && PINNABLE.has(i.model) && (
                            <Menu.Item
                              onClick={() =>
                                pin.mutate({ item: i, pinned: true }, { onSuccess: () => notifySuccess(`${i.name} is pinned.`) })
                              }
                            >
                              Pin
                            </Menu.Item>
                          )}
                          {movable && <Menu.Item onClick={() => setMoving([i])}>Move</Menu.Item>}
                          {movable && (
                            <Menu.Item color="red" onClick={() => trash([i])}>
                              Move to trash
                            </Menu.Item>
                          )}
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {total > PAGE_SIZE && (
        <Group justify="center" mt="md">
          <Pagination
            total={Math.ceil(total / PAGE_SIZE)}
            value={page}
            onChange={(p) => {
              const next = new URLSearchParams(params);
              next.set('page', String(p));
              setParams(next);
            }}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          />
        </Group>
      )}
      {moving && (
        <CollectionPicker
          title={moving.length === 1 ? `Move ${moving[0].name}` : `Move ${moving.length} items`}
          confirmLabel="Move"
          exclude={new Set(moving.filter((m) => m.model === 'collection').map((m) => m.id))}
          loading={move.isPending}
          onClose={() => setMoving(null)}
          onPick={(to) =>
            move.mutate(
              { items: moving, to: to.id },
              {
                onSuccess: () => {
                  notifySuccess(
                    moving.length === 1 ? `${moving[0].name} is moved to ${to.name}.` : `${moving.length} items are moved to ${to.name}.`,
                  );
                  setMoving(null);
                  setSelected(new Map());
                },
              },
            )
          }
        />
      )}
    </section>
  );
}
