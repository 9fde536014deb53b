import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { sessionPropertiesQuery } from './api/session';
import { currentUserQuery } from './api/user';
import { loginPath } from './auth/redirect';
import { notifyError } from './notify';
import { router } from './router';
import { colorSchemeManager, cssVariables, theme } from './theme';
import '@fontsource/lato/400.css';
import '@fontsource/lato/700.css';
import '@fontsource/lato/900.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

/** The pages a lost session must not leave: they are where it leads. */
const SIGNED_OUT_PAGES = /^\/(auth\/login|setup)(\/|$)/;

const queryClient = createQueryClient({
  onSessionLost() {
    if (SIGNED_OUT_PAGES.test(window.location.pathname)) return;
    // Everything cached was the lost session's; sign-in comes back here afterwards.
    const { pathname, search, hash } = window.location;
    const back = loginPath(pathname + search + hash);
    queryClient.removeQueries();
    void router.navigate(back, { replace: true });
  },
  onUnhandled: notifyError,
});

// Asked now, while the page's code is still loading: the shell would ask only once its chunk had arrived.
void queryClient.prefetchQuery(sessionPropertiesQuery);
if (!SIGNED_OUT_PAGES.test(window.location.pathname)) void queryClient.prefetchQuery(currentUserQuery);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
