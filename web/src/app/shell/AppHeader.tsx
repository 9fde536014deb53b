import { Anchor, Burger, Button, Group, Kbd } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { useSessionProperties } from '../api/session';
import type { CurrentUser } from '../api/user';
import { NewMenu } from './NewMenu';
import { UserMenu } from './UserMenu';

/** The header: the site's name (home), search, "New", and the user's menu. */
export function AppHeader({ user, navOpen, onToggleNav }: { user?: CurrentUser; navOpen: boolean; onToggleNav?: () => void }) {
  const site = useSessionProperties().data?.['site-name'];
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {onToggleNav && <Burger opened={navOpen} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />}
        <Anchor component={Link} to="/" fw={900} fz="lg" c="var(--mantine-color-text)" underline="never">
          {site ?? 'Analytics'}
        </Anchor>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <SearchButton />
        <NewMenu />
        {user && <UserMenu user={user} />}
      </Group>
    </Group>
  );
}

// The palette's code comes with its first opening, not with every page.
const CommandPalette = lazy(() => import('../search/CommandPalette'));

/** Search across the site: a button that opens the command palette, as Ctrl/Cmd+K does from anywhere. */
function SearchButton() {
  const [open, setOpen] = useState(false);
  useHotkeys([['mod+K', () => setOpen(true)]], []);
  return (
    <>
      <Button
        variant="default"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => setOpen(true)}
        rightSection={<Kbd size="xs">Ctrl K</Kbd>}
        visibleFrom="sm"
        w={220}
        justify="space-between"
        fw={400}
      >
        Search…
      </Button>
      {open && (
        <Suspense fallback={null}>
          <CommandPalette onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
