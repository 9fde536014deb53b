import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Navigate, Outlet, useMatch } from 'react-router';
import { ApiError } from '../api/client';
import { useSessionProperties } from '../api/session';
import { useCurrentUser } from '../api/user';
import { AppHeader } from './AppHeader';
import { useChromeHidden } from './chrome';
import { CollectionNav } from './CollectionNav';

/**
 * The signed-in frame of every page but sign-in and setup: the header, the collections navigation (the admin
 * console has its own), the page. It draws at once and fills in as the data arrives. Without a user yet it leads to
 * setup; a missing session (401 from any call) leads to sign-in through the query client.
 */
export function AppLayout() {
  const props = useSessionProperties();
  const user = useCurrentUser();
  const [navOpen, nav] = useDisclosure(false);
  const inAdmin = useMatch('/admin/*') !== null;
  // A dashboard in full screen hides the frame.
  const bare = useChromeHidden();

  if (props.data?.['setup-token']) return <Navigate to="/setup" replace />;
  // A 401 is on its way to sign-in (the query client); any other failure is the route's error page, not a spinner.
  if (user.error && !(user.error instanceof ApiError && user.error.status === 401)) throw user.error;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={inAdmin ? undefined : { width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
      padding="lg"
      disabled={bare}
    >
      <AppShell.Header>
        <AppHeader user={user.data} navOpen={navOpen} onToggleNav={inAdmin ? undefined : nav.toggle} />
      </AppShell.Header>
      {!inAdmin && (
        <AppShell.Navbar p="sm" component="nav" aria-label="Collections" style={{ overflowY: 'auto' }}>
          <CollectionNav user={user.data} onNavigate={nav.close} />
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        {user.data ? (
          <Outlet />
        ) : (
          <Center p="xl">
            <Loader aria-label="Loading" />
          </Center>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
