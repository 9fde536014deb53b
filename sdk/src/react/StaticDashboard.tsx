import { useState } from 'react';
import type { ApiDashboard, ApiDashcard, ApiDataset } from './api-types';
import { checkDataset } from './api-types';
import { CardView, ErrorNote } from './CardView';
import { DashboardGrid } from './DashboardGrid';
import { ParameterBar } from './ParameterBar';
import { dashboardQueryParameters, visibleParameters, type ParameterValues } from './parameters';
import { downloadResult } from './download';
import { postJson, useApi } from './use-api';
import { useAnalyticsContext } from './context';

export interface StaticDashboardProps {
  dashboardId: number;
  /** Filter values by slug. */
  initialParameters?: ParameterValues;
  hiddenParameters?: string[];
  withTitle?: boolean;
  withDownloads?: boolean;
  className?: string;
  /** Called with the dashcard and card clicked (InteractiveDashboard drills through with it). */
  onCardClick?: (dashcard: ApiDashcard) => void;
}

/** A dashboard with its filters, tabs and cards, read-only. */
export function StaticDashboard({
  dashboardId,
  initialParameters,
  hiddenParameters,
  withTitle = true,
  withDownloads = false,
  className,
  onCardClick,
}: StaticDashboardProps) {
  const [values, setValues] = useState<ParameterValues>(initialParameters ?? {});
  const [tab, setTab] = useState<number | null>(null);
  const dash = useApi<ApiDashboard>(`dashboard:${dashboardId}`, (c, signal) => c.fetchJson(`/api/dashboard/${dashboardId}`, { signal }));
  if (dash.state !== 'ready') {
    return (
      <div className={className} data-testid="analytics-dashboard" data-state={dash.state}>
        {dash.state === 'error' ? <ErrorNote message={dash.message} /> : <div data-testid="analytics-loading">Loading…</div>}
      </div>
    );
  }
  const d = dash.data;
  const params = d.parameters ?? [];
  const tabs = [...(d.tabs ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const currentTab = tabs.length > 0 ? (tab ?? tabs[0].id) : null;
  const cards = d.dashcards.filter(
    (c) => currentTab === null || c.dashboard_tab_id === currentTab || c.dashboard_tab_id === null || c.dashboard_tab_id === undefined,
  );
  return (
    <div className={className} data-testid="analytics-dashboard" data-dashboard-id={dashboardId} data-state="ready">
      {withTitle && (
        <h1 data-testid="analytics-dashboard-title" style={{ fontSize: 20, margin: '4px 0 8px' }}>
          {d.name}
        </h1>
      )}
      {tabs.length > 1 && (
        <div role="tablist" style={{ display: 'flex', gap: 16, borderBottom: '1px solid var(--analytics-border)', marginBottom: 8 }}>
          {tabs.map((t) => (
            <button
              key={t.id}
              role="tab"
              type="button"
              aria-selected={t.id === currentTab}
              onClick={() => setTab(t.id)}
              style={{
                background: 'none',
                border: 'none',
                padding: '6px 0',
                cursor: 'pointer',
                color: t.id === currentTab ? 'var(--analytics-brand)' : 'inherit',
                borderBottom: t.id === currentTab ? '2px solid var(--analytics-brand)' : '2px solid transparent',
                fontWeight: 700,
              }}
            >
              {t.name}
            </button>
          ))}
        </div>
      )}
      <ParameterBar parameters={visibleParameters(params, hiddenParameters)} values={values} onChange={setValues} />
      <DashboardGrid
        dashcards={cards}
        render={(dc) => (
          <Dashcard
            dashboardId={dashboardId}
            dashcard={dc}
            parameters={dashboardQueryParameters(params, values)}
            withDownloads={withDownloads}
            onCardClick={onCardClick}
          />
        )}
      />
    </div>
  );
}

function Dashcard({
  dashboardId,
  dashcard,
  parameters,
  withDownloads,
  onCardClick,
}: {
  dashboardId: number;
  dashcard: ApiDashcard;
  parameters: unknown[];
  withDownloads: boolean;
  onCardClick?: (d: ApiDashcard) => void;
}) {
  const { client } = useAnalyticsContext('<StaticDashboard>');
  const card = dashcard.card;
  // A card the viewer may not read comes as its id alone (as Metabase sends it): nothing to run or draw.
  const unreadable = Boolean(card && card.display === undefined);
  const base = `/api/dashboard/${dashboardId}/dashcard/${dashcard.id}/card/${dashcard.card_id}/query`;
  const result = useApi<ApiDataset>(
    card && dashcard.card_id && !unreadable ? `${base}:${JSON.stringify(parameters)}` : null,
    async (c, signal) => checkDataset(await postJson<ApiDataset>(c, base, { parameters }, signal)),
  );
  const settings = { ...(card?.visualization_settings ?? {}), ...(dashcard.visualization_settings ?? {}) };
  if (!card || !dashcard.card_id) {
    // A text or heading card: no query.
    const text = typeof settings.text === 'string' ? settings.text : '';
    return (
      <div data-testid="analytics-text-card" style={{ whiteSpace: 'pre-wrap' }}>
        {text}
      </div>
    );
  }
  if (unreadable) return <ErrorNote message="Sorry, you don't have permission to see this card." />;
  const title = typeof settings['card.title'] === 'string' && settings['card.title'] ? settings['card.title'] : card.name;
  return (
    <CardView
      title={title}
      display={card.display}
      settings={settings}
      result={result}
      onDownload={withDownloads ? () => downloadResult(client, `${base}/csv`, parameters, `${title}.csv`) : undefined}
      onClickCell={onCardClick ? () => onCardClick(dashcard) : undefined}
    />
  );
}
