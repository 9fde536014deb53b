import { Button, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { collectionPath, useCollectionLevel, type CollectionNode } from '../api/collection';
import type { CurrentUser } from '../api/user';
import { CollectionTree } from '../components/CollectionTree';

/**
 * The left navigation: Our analytics and its collections as a tree opened a level at a time, the person's own
 * collection, for admins the other people's personal collections, then browsing and the trash.
 */
export function CollectionNav({ user, onNavigate }: { user?: CurrentUser; onNavigate(): void }) {
  const top = useCollectionLevel(null);
  const { pathname } = useLocation();
  const [othersOpen, setOthersOpen] = useState(false);
  const current = /^\/collection\/(\d+)/.exec(pathname)?.[1];
  const nodes = top.data ?? [];
  const shared = nodes.filter((c) => c.personal_owner_id === null);
  const mine = nodes.filter((c) => user && c.personal_owner_id === user.id);
  const others = nodes.filter((c) => c.personal_owner_id !== null && c.personal_owner_id !== user?.id);
  const link = (to: string, label: string, active = pathname === to) => (
    <NavLink key={to} component={Link} to={to} label={label} active={active} onClick={onNavigate} py={4} />
  );
  const render = (c: CollectionNode) => link(collectionPath(c), c.name, String(c.id) === current);
  return (
    <Stack gap={4}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" component="h2">
        Collections
      </Text>
      {link('/collection/root', 'Our analytics')}
      {top.isPending && <Skeleton h={28} mx="sm" aria-label="Loading the collections" />}
      <CollectionTree nodes={shared} render={render} />
      {mine.length > 0 && <CollectionTree nodes={mine.map((c) => ({ ...c, name: 'Your personal collection' }))} render={render} />}
      {others.length > 0 && (
        <>
          <Button
            variant="subtle"
            color="gray"
            justify="flex-start"
            size="compact-md"
            fw={400}
            aria-expanded={othersOpen}
            onClick={() => setOthersOpen(!othersOpen)}
          >
            Other users&apos; personal collections
          </Button>
          {othersOpen && <CollectionTree nodes={others} render={render} depth={1} />}
        </>
      )}
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mt="md" component="h2">
        Browse
      </Text>
      {link('/browse/models', 'Models')}
      {link('/browse/databases', 'Databases', pathname.startsWith('/browse/databases'))}
      {link('/trash', 'Trash')}
    </Stack>
  );
}
