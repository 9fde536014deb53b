import { Tabs, Text } from '@mantine/core';
import { useEffect } from 'react';
import { preloadDisplays, type Theme } from '../../visualizations';
import type { DashboardData, DashboardTab } from '../api/dashboard-view';
import { ActionCard } from './ActionCard';
import { DashboardGrid } from './DashboardGrid';
import { onTab } from './draft';
import { FilterBar } from './FilterBar';
import { missingRequired, sentParameters, type FilterValues } from './params';
import { QuestionCard } from './QuestionCard';
import { VirtualCard } from './VirtualCard';

/** What a viewer sees below the header: the tabs, the filter bar and the grid of the chosen tab. */
export function DashboardBody(props: {
  dashboard: DashboardData;
  tabs: DashboardTab[];
  tab: number | null;
  onTab: (id: number) => void;
  values: FilterValues;
  onValues: (v: FilterValues) => void;
  refresh: number;
  theme: Theme;
}) {
  const { dashboard, tabs } = props;
  const parameters = dashboard.parameters ?? [];
  const shown = dashboard.dashcards.filter((dc) => onTab(dc, props.tab, tabs));
  const blocked = missingRequired(parameters, props.values).length > 0;
  const displays = shown.flatMap((dc) => (dc.card ? [dc.card.display, ...(dc.series ?? []).map((s) => s.display)] : [])).join();
  // The charts' code loads while the cards' queries run, not after their rows have come.
  useEffect(() => preloadDisplays(displays.split(',').filter(Boolean)), [displays]);
  const content = (
    <>
      <FilterBar
        dashboardId={dashboard.id}
        parameters={parameters}
        values={props.values}
        autoApply={dashboard.auto_apply_filters}
        onApply={props.onValues}
        canLoad
      />
      {shown.length === 0 ? (
        <Text c="dimmed" mt="md">
          This {tabs.length > 1 ? 'tab' : 'dashboard'} is empty.
        </Text>
      ) : (
        <DashboardGrid
          dashcards={shown}
          editing={false}
          onLayout={() => undefined}
          renderCard={(dc) =>
            dc.action_id ? (
              <ActionCard dashboardId={dashboard.id} dashcard={dc} values={props.values} />
            ) : dc.card ? (
              <QuestionCard
                dashboardId={dashboard.id}
                dashcard={dc}
                sent={sentFor(dc, parameters, props.values)}
                refresh={props.refresh}
                theme={props.theme}
                blocked={blocked}
                parameters={parameters}
                onFilter={(v) => props.onValues({ ...props.values, ...v })}
              />
            ) : (
              <VirtualCard dashcard={dc} parameters={parameters} values={props.values} editing={false} onChange={() => undefined} />
            )
          }
        />
      )}
    </>
  );
  if (tabs.length <= 1) return content;
  return (
    <Tabs value={String(props.tab)} onChange={(v) => v && props.onTab(Number(v))}>
      <Tabs.List aria-label="Dashboard tabs" mb="sm">
        {tabs.map((t) => (
          <Tabs.Tab key={t.id} value={String(t.id)}>
            {t.name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {/* The chosen tab's panel holds the filters and its cards; the others are empty until chosen. */}
      {tabs.map((t) => (
        <Tabs.Panel key={t.id} value={String(t.id)}>
          {t.id === props.tab ? content : null}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** Only the filters wired to a card are sent to it: a change of another filter leaves its rows (and its cache key) alone. */
export function sentFor(dc: DashboardData['dashcards'][number], parameters: DashboardData['parameters'], values: FilterValues) {
  const wired = new Set(dc.parameter_mappings.map((m) => m.parameter_id));
  return sentParameters(
    (parameters ?? []).filter((p) => wired.has(p.id)),
    values,
  );
}
