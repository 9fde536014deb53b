import { ActionIcon, Alert, Box, Group, Loader, Menu, Paper, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Visualization, type Theme } from '../../visualizations';
import {
  dashboardViewKeys,
  getDashboard,
  runDashcard,
  type DashboardParameter,
  type DashcardData,
  type QueryAnswer,
  type SentParameter,
} from '../api/dashboard-view';
import { clickAction, clickBehaviorOf } from './click-behavior';
import { urlWithValues } from './params';
import { saveDashcardFile } from './download';
import { COMBINABLE, combineSeries } from './series';
import { MoreIcon } from './icons';

/** The error a failed query answers with (202 and `status: "failed"`), as text; null when it ran. */
function failure(r: { status?: string; error?: unknown }): string | null {
  if (r.status !== 'failed' && !r.error) return null;
  return typeof r.error === 'string' ? r.error : 'The query failed.';
}

/**
 * One question on a dashboard: its rows from the dashcard query with the filters mapped to it (`sent`), re-run when
 * they change or on `refresh`; its title, its menu (download, open the question) and, while editing, `editActions`.
 */
export function QuestionCard(props: {
  dashboardId: number;
  dashcard: DashcardData;
  sent: SentParameter[];
  refresh: number;
  theme: Theme;
  /** A required filter has no value: the card waits instead of running. */
  blocked: boolean;
  editActions?: ReactNode;
  /** The dashboard's filters, and how to set them: a click behaviour may filter this dashboard. */
  parameters?: DashboardParameter[];
  onFilter?: (values: Record<string, unknown>) => void;
  /**
   * A card not saved anywhere (an x-ray's, xray/XrayPage): its rows come from `run` (an ad-hoc query) under `key`
   * instead of the dashcard query, and it has no question to open.
   */
  transient?: { key: readonly unknown[]; run: (signal: AbortSignal) => Promise<QueryAnswer> };
}) {
  const { dashboardId, dashcard, sent } = props;
  const card = dashcard.card!;
  const settings = { ...card.visualization_settings, ...dashcard.visualization_settings };
  const pivot = card.display === 'pivot';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  /** Another dashboard, its filters set from the clicked row: their slugs are in that dashboard's definition. */
  const openDashboard = async (id: number, values: Record<string, string[]>) => {
    let query = '';
    if (Object.keys(values).length) {
      try {
        const target = await queryClient.fetchQuery({
          queryKey: dashboardViewKeys.one(id),
          queryFn: ({ signal }) => getDashboard(id, signal),
        });
        query = urlWithValues(target.parameters ?? [], values, new URLSearchParams()).toString();
      } catch {
        // The dashboard's own page says what is wrong with it (gone, not allowed).
      }
    }
    navigate(query ? `/dashboard/${id}?${query}` : `/dashboard/${id}`);
  };
  const behavior = props.editActions ? null : clickBehaviorOf(dashcard.visualization_settings);
  // Combined series: each question runs as this dashcard's (the server maps the filters the same way), then one chart.
  const series = COMBINABLE.has(card.display) ? (dashcard.series ?? []) : [];
  const { transient } = props;
  const result = useQuery({
    queryKey:
      transient?.key ??
      dashboardViewKeys.dashcard(
        dashboardId,
        dashcard.id,
        card.id,
        series.map((c) => c.id),
        sent,
        props.refresh,
      ),
    queryFn: async ({ signal }): Promise<QueryAnswer> => {
      if (transient) return transient.run(signal);
      const run = (id: number) => runDashcard(dashboardId, dashcard.id, id, sent, { pivot, signal, ignoreCache: props.refresh > 0 });
      if (!series.length) return run(card.id);
      const answers = await Promise.all([card, ...series].map((c) => run(c.id)));
      const failed = answers.find((a) => failure(a));
      if (failed) return failed;
      return { ...answers[0], data: combineSeries([card, ...series].map((c, i) => ({ name: c.name, data: answers[i].data }))) };
    },
    enabled: !props.blocked && (transient !== undefined || dashcard.id > 0),
    placeholderData: (previous) => previous,
    // A dashcard's rows are kept for a while: going back to a tab draws them at once.
    staleTime: 5 * 60_000,
  });
  const title = settings['card.hide_title'] === true ? null : String(settings['card.title'] ?? card.name);
  const error = result.error ? result.error.message : result.data ? failure(result.data) : null;
  const state = error ? 'error' : result.data && !result.isFetching ? 'ready' : 'loading';
  // What the viewer may download, as the card's answer says (before any answer: offered, the server decides).
  const downloads = result.data?.data.download_perms ?? 'full';

  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      h="100%"
      component="section"
      aria-label={title ?? card.name}
      data-testid="dashcard"
      data-dashcard-id={dashcard.id}
      data-state={state}
      aria-busy={state === 'loading'}
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb={4}>
        <Text fw={700} size="sm" truncate component="h3" m={0}>
          {title}
        </Text>
        <Group gap={2} wrap="nowrap">
          {props.editActions}
          {!props.editActions && !transient && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Tooltip label="Card menu">
                  <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Menu of ${card.name}`}>
                    <MoreIcon />
                  </ActionIcon>
                </Tooltip>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to={`/question/${card.id}`}>
                  Open the question
                </Menu.Item>
                {downloads !== 'none' && (
                  <>
                    <Menu.Label>{downloads === 'limited' ? 'Download up to 10,000 rows' : 'Download results'}</Menu.Label>
                    {['csv', 'xlsx', 'json'].map((f) => (
                      <Menu.Item key={f} onClick={() => void saveDashcardFile(dashboardId, dashcard.id, card.id, f, sent)}>
                        .{f}
                      </Menu.Item>
                    ))}
                  </>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <Box style={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {props.blocked && (
          <Text size="sm" c="dimmed">
            Fill in the required filters to see this card.
          </Text>
        )}
        {dashcard.id < 0 && !transient && (
          <Text size="sm" c="dimmed">
            Save the dashboard to run this question.
          </Text>
        )}
        {error && (
          <Alert color="red" title="There was a problem displaying this card." role="alert">
            {error}
          </Alert>
        )}
        {!error && !result.data && !props.blocked && (transient || dashcard.id > 0) && (
          <Loader size="sm" aria-label={`Loading ${card.name}`} />
        )}
        {!error && result.data && (
          <Box h="100%" style={{ opacity: result.isFetching ? 0.6 : 1 }}>
            <Visualization
              display={card.display}
              settings={
                series.length
                  ? // The combined columns: the x-axis, then one metric per question (the settings named the first's own).
                    {
                      ...settings,
                      'graph.dimensions': [result.data.data.cols[0].name],
                      'graph.metrics': result.data.data.cols.slice(1).map((c) => c.name),
                    }
                  : settings
              }
              data={result.data.data}
              theme={props.theme}
              onClickCell={
                behavior
                  ? (e) => {
                      const data = result.data!.data;
                      const action = clickAction(behavior, data.rows[e.rowIndex] ?? [], data.cols, props.parameters ?? []);
                      if (action?.kind === 'filter') props.onFilter?.(action.values);
                      else if (action?.kind === 'url') window.open(action.url, '_blank', 'noopener,noreferrer');
                      else if (action?.kind === 'path') navigate(action.path);
                      else if (action?.kind === 'dashboard') void openDashboard(action.id, action.values);
                    }
                  : undefined
              }
            />
          </Box>
        )}
      </Box>
    </Paper>
  );
}
