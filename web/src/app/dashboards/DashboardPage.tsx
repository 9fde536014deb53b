import { Alert, Box, Skeleton, Stack, useComputedColorScheme } from '@mantine/core';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useDashboard, type DashboardData } from '../api/dashboard-view';
import { NotFound } from '../components/NotFound';
import { NoPermission } from '../components/NoPermission';
import { usePageTitle } from '../components/PageTitle';
import { DashboardHeader } from './DashboardHeader';
import { DashboardBody } from './DashboardBody';
import { useDashboardFullscreen } from './fullscreen';
import { idFromSlug, urlWithValues, valuesFromUrl, type FilterValues } from './params';

// The editor is a chunk of its own: a viewer never loads it.
const DashboardEditor = lazy(async () => ({ default: (await import('./edit/DashboardEditor')).DashboardEditor }));

/** `/dashboard/:id-slug`: the dashboard, and its editor once "Edit" is pressed. */
export function DashboardPage() {
  const id = idFromSlug(useParams()['*']);
  const dashboard = useDashboard(id);
  usePageTitle(dashboard.data?.name ?? 'Dashboard');
  if (Number.isNaN(id)) return <NotFound />;
  if (dashboard.error) {
    if (dashboard.error instanceof ApiError && dashboard.error.status === 403) return <NoPermission />;
    if (dashboard.error instanceof ApiError && dashboard.error.status === 404) return <NotFound />;
    return (
      <Alert color="red" role="alert" title="The dashboard could not be loaded" m="md">
        {dashboard.error.message}
      </Alert>
    );
  }
  if (!dashboard.data) {
    return (
      <Stack p="md" aria-label="Loading the dashboard" aria-busy="true">
        <Skeleton h={36} w={320} />
        <Skeleton h={300} />
      </Stack>
    );
  }
  return <LoadedDashboard dashboard={dashboard.data} />;
}

function LoadedDashboard({ dashboard }: { dashboard: DashboardData }) {
  const [editing, setEditing] = useState(false);
  const [tab, setTab] = useState<number | null>(null);
  // The filters' values live in the URL, so a filtered dashboard can be linked and reloaded as it is.
  const [search, setSearch] = useSearchParams();
  const parameters = dashboard.parameters ?? [];
  const paramsKey = JSON.stringify(parameters);
  const searchKey = search.toString();
  const values = useMemo(() => valuesFromUrl(parameters, new URLSearchParams(searchKey)), [paramsKey, searchKey]);
  const setValues = (v: FilterValues) => setSearch((cur) => urlWithValues(parameters, v, cur), { replace: true });
  const [refreshEvery, setRefreshEvery] = useState<number | null>(null);
  const [refresh, setRefresh] = useState(0);
  const { toggle, fullscreen } = useDashboardFullscreen();
  const theme = useComputedColorScheme('light') === 'dark' ? 'night' : 'light';

  useEffect(() => {
    if (!refreshEvery) return;
    const timer = setInterval(() => setRefresh((r) => r + 1), refreshEvery * 1000);
    return () => clearInterval(timer);
  }, [refreshEvery]);

  const tabs = useMemo(() => [...(dashboard.tabs ?? [])].sort((a, b) => a.position - b.position), [dashboard.tabs]);
  const current = tab !== null && tabs.some((t) => t.id === tab) ? tab : (tabs[0]?.id ?? null);

  if (editing) {
    return (
      <Suspense fallback={<Skeleton h={300} m="md" aria-label="Loading the editor" />}>
        <DashboardEditor dashboard={dashboard} initialTab={current} theme={theme} onDone={() => setEditing(false)} />
      </Suspense>
    );
  }
  return (
    <Box p="md">
      <DashboardHeader
        dashboard={dashboard}
        onEdit={() => setEditing(true)}
        fullscreen={fullscreen}
        onFullscreen={toggle}
        refreshEvery={refreshEvery}
        onRefreshEvery={setRefreshEvery}
      />
      <DashboardBody
        dashboard={dashboard}
        tabs={tabs}
        tab={current}
        onTab={setTab}
        values={values}
        onValues={setValues}
        refresh={refresh}
        theme={theme}
      />
    </Box>
  );
}
