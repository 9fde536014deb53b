import { Alert, Anchor, Box, Button, Group, Skeleton, Stack, Text, Title, useComputedColorScheme } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { automagicKeys, runXrayCard, useSaveXray, useXray, type XrayDashboard } from '../api/automagic';
import { api, ApiError } from '../api/client';
import type { DashboardParameter } from '../api/dashboard-view';
import { fieldKeys, type FieldValues } from '../api/field';
import { CollectionPicker } from '../collections/CollectionPicker';
import { NoPermission } from '../components/NoPermission';
import { NotFound } from '../components/NotFound';
import { usePageTitle } from '../components/PageTitle';
import { DashboardGrid } from '../dashboards/DashboardGrid';
import { FilterBar } from '../dashboards/FilterBar';
import { defaultValues, sentParameters, widgetKind, type FilterValues } from '../dashboards/params';
import { QuestionCard } from '../dashboards/QuestionCard';
import { VirtualCard } from '../dashboards/VirtualCard';
import { cardQuery, filterFields } from './params';
import { RelatedPanel } from './RelatedPanel';

/**
 * `/auto/dashboard/<entity>/<id or base64 query>[/cell/...][/rule/...][/compare/...]`: an x-ray, as GET
 * /api/automagic-dashboards/ answers at the same path, drawn with the dashboard viewer's grid, cards and filters; the
 * related x-rays beside it; "Save this" makes it a dashboard and opens it.
 */
export function XrayPage() {
  const { pathname, search } = useLocation();
  const path = pathname.replace(/^\/auto\/dashboard\/?/, '') + search;
  const xray = useXray(path);
  usePageTitle(xray.data?.name ?? 'X-ray');
  if (!path) return <NotFound />;
  if (xray.error) {
    if (xray.error instanceof ApiError && xray.error.status === 403) return <NoPermission />;
    if (xray.error instanceof ApiError && xray.error.status === 404) return <NotFound />;
    return (
      <Alert color="red" role="alert" title="This x-ray could not be made" m="md">
        {xray.error.message}
      </Alert>
    );
  }
  if (!xray.data) {
    return (
      <Stack p="md" aria-label="Loading the x-ray" aria-busy="true">
        <Skeleton h={36} w={320} />
        <Skeleton h={300} />
      </Stack>
    );
  }
  return <LoadedXray key={path} path={path} xray={xray.data} />;
}

function LoadedXray({ path, xray }: { path: string; xray: XrayDashboard }) {
  const [values, setValues] = useState<FilterValues>(() => defaultValues(xray.parameters));
  useEffect(() => setValues(defaultValues(xray.parameters)), [xray.parameters]);
  const theme = useComputedColorScheme('light') === 'dark' ? 'night' : 'light';
  const parameters = useWithFieldValues(xray);
  const set = sentParameters(parameters, values);
  return (
    <Group align="flex-start" wrap="nowrap" gap="md" p="md">
      <Box style={{ flex: 1, minWidth: 0 }}>
        <XrayHeader xray={xray} />
        <FilterBar dashboardId={0} parameters={parameters} values={values} autoApply onApply={setValues} canLoad={false} />
        <DashboardGrid
          dashcards={xray.dashcards}
          editing={false}
          onLayout={() => undefined}
          renderCard={(dc) => {
            if (!dc.card)
              return <VirtualCard dashcard={dc} parameters={parameters} values={values} editing={false} onChange={() => undefined} />;
            // The unsaved dashboard has no dashcard query: each card runs its own query with its mapped filters.
            const query = cardQuery(dc, set);
            return (
              <QuestionCard
                dashboardId={0}
                dashcard={dc}
                sent={[]}
                refresh={0}
                theme={theme}
                blocked={false}
                transient={{ key: automagicKeys.card(path, dc.id, query), run: (signal) => runXrayCard(query, signal) }}
              />
            );
          }}
        />
        {xray.more && (
          <Anchor component={Link} to={xray.more} mt="md" display="inline-block">
            Show more about this
          </Anchor>
        )}
      </Box>
      <RelatedPanel related={xray.related} />
    </Group>
  );
}

/**
 * The x-ray's filters, each list filter with the values of the field its cards filter on: an unsaved dashboard has no
 * id to ask `/api/dashboard/:id/params/.../values` of, so they come from `/api/field/:id/values` as a static list.
 */
function useWithFieldValues(xray: XrayDashboard): DashboardParameter[] {
  const fieldOf = useMemo(() => filterFields(xray.dashcards), [xray.dashcards]);
  const listed = xray.parameters.filter((p) => widgetKind(p.type) === 'list' && fieldOf.has(p.id));
  const answers = useQueries({
    queries: listed.map((p) => {
      const id = fieldOf.get(p.id)!;
      return {
        queryKey: fieldKeys.values(id),
        queryFn: ({ signal }: { signal: AbortSignal }) => api<FieldValues>('GET', `/api/field/${id}/values`, { signal }),
      };
    }),
  });
  const byId = new Map(listed.map((p, i) => [p.id, answers[i].data?.values]));
  return xray.parameters.map((p) => {
    const values = byId.get(p.id);
    return values ? { ...p, values_source_type: 'static-list', values_source_config: { values } } : p;
  });
}

/** The x-ray's title and description, and "Save this": into a chosen collection, then the saved dashboard opens. */
function XrayHeader({ xray }: { xray: XrayDashboard }) {
  const [picking, setPicking] = useState(false);
  const save = useSaveXray();
  const navigate = useNavigate();
  return (
    <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
      <div>
        <Title order={1} size="h2">
          {xray.name}
        </Title>
        {xray.description && (
          <Text c="dimmed" size="sm">
            {xray.description}
          </Text>
        )}
      </div>
      <Button onClick={() => setPicking(true)}>Save this</Button>
      {picking && (
        <CollectionPicker
          title="Save this x-ray as a dashboard"
          confirmLabel="Save"
          loading={save.isPending}
          onClose={() => setPicking(false)}
          onPick={(c) => save.mutate({ dashboard: xray, collectionId: c.id }, { onSuccess: (saved) => navigate(`/dashboard/${saved.id}`) })}
        />
      )}
    </Group>
  );
}
