import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Dashboard as DashboardData, Dashcard, DashboardClient, Parameter, ParamValues } from '../api/types';
import { ParameterBar } from '../parameters/ParameterBar';
import { initialValues } from '../parameters/values';
import type { Theme } from '../visualizations';
import { DashcardView } from './DashcardView';
import { TextCard } from './TextCard';

export interface DashboardOptions {
  theme: Theme;
  titled: boolean;
  hideParameters: string[];
  hideDownloadButton: boolean;
  /** Seconds between re-runs of every card; null: never. */
  refresh: number | null;
}

const DEFAULT_OPTIONS: DashboardOptions = { theme: 'light', titled: true, hideParameters: [], hideDownloadButton: false, refresh: null };

/** The ids of the parameters mapped onto a dashcard's card. */
function mappedParameters(dc: Dashcard): string[] {
  return [
    ...new Set(
      (dc.parameter_mappings ?? [])
        .filter((m) => m.card_id === null || m.card_id === undefined || m.card_id === dc.card_id)
        .map((m) => m.parameter_id),
    ),
  ];
}

/** What a text card shows without a card: `virtual_card.display` (text, heading, link...). */
function virtualKind(dc: Dashcard): string | null {
  if (dc.card) return null;
  const v = dc.visualization_settings?.virtual_card as { display?: string } | undefined;
  return v?.display ?? 'text';
}

/**
 * A dashboard: title, tabs, parameter widgets and the 24-column grid of its cards. Loads through `client` (public,
 * embed, or the SDK's signed-in client). A parameter change re-runs only the cards it is mapped to.
 */
export function Dashboard(props: {
  client: DashboardClient;
  options?: Partial<DashboardOptions>;
  /** `#slug=value` defaults. */
  defaults?: Record<string, string[]>;
  onLoadError?: (e: Error) => void;
  /** Given: the loaded dashboard (the SDK may have it already). */
  initial?: DashboardData;
}) {
  const options = { ...DEFAULT_OPTIONS, ...props.options };
  const { client, onLoadError } = props;
  const [dashboard, setDashboard] = useState<DashboardData | null>(props.initial ?? null);
  // Null until the defaults are applied, so no card runs first without them.
  const [values, setValues] = useState<ParamValues | null>(null);
  const [tab, setTab] = useState<number | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (props.initial) return;
    let live = true;
    client
      .loadDashboard()
      .then((d) => live && setDashboard(d))
      .catch((e: Error) => live && onLoadError?.(e));
    return () => {
      live = false;
    };
  }, [client, onLoadError, props.initial]);

  const parameters: Parameter[] = useMemo(() => dashboard?.parameters ?? [], [dashboard]);
  const defaultsKey = JSON.stringify(props.defaults ?? {});
  useEffect(() => {
    setValues(initialValues(parameters, JSON.parse(defaultsKey)));
  }, [parameters, defaultsKey]);

  const tabs = useMemo(() => [...(dashboard?.tabs ?? [])].sort((a, b) => a.position - b.position), [dashboard]);
  // The chosen tab, else the first: decided while rendering, so the first drawing already shows the first tab's cards.
  const current = tab !== null && tabs.some((t) => t.id === tab) ? tab : (tabs[0]?.id ?? null);

  useEffect(() => {
    if (!options.refresh) return;
    const timer = setInterval(() => setTick((t) => t + 1), options.refresh * 1000);
    return () => clearInterval(timer);
  }, [options.refresh]);

  const change = useCallback((id: string, value: unknown) => setValues((v) => ({ ...v, [id]: value })), []);
  const loadValues = useCallback((p: Parameter, q: string | null, v: ParamValues) => client.parameterValues(p, q, v), [client]);

  if (!dashboard || !values) {
    return (
      <div className="dashboard" data-testid="dashboard" data-state="loading">
        <div className="spinner" role="progressbar" aria-label="Loading" />
      </div>
    );
  }
  const shown = dashboard.dashcards.filter(
    (dc) => !tabs.length || dc.dashboard_tab_id === current || (dc.dashboard_tab_id === null && tabs[0]?.id === current),
  );
  const rows = Math.max(1, ...shown.map((dc) => dc.row + dc.size_y));

  return (
    <div className="dashboard" data-testid="dashboard" data-state="ready">
      {options.titled && (
        <header className="page-header">
          <h1 data-testid="title">{dashboard.name}</h1>
        </header>
      )}
      {tabs.length > 1 && (
        <nav className="tabs" role="tablist">
          {tabs.map((t) => (
            <button type="button" role="tab" key={t.id} aria-selected={t.id === current} onClick={() => setTab(t.id)}>
              {t.name}
            </button>
          ))}
        </nav>
      )}
      <ParameterBar parameters={parameters} values={values} hidden={options.hideParameters} onChange={change} loadValues={loadValues} />
      <div className="grid" data-testid="grid" style={{ gridTemplateRows: `repeat(${rows}, var(--row-height))` }}>
        {shown.map((dc) => {
          const kind = virtualKind(dc);
          const mapped = mappedParameters(dc);
          const runKey = JSON.stringify([tick, mapped.map((id) => values[id] ?? null)]);
          return (
            <div
              key={dc.id}
              className="grid-cell"
              style={{ gridColumn: `${dc.col + 1} / span ${dc.size_x}`, gridRow: `${dc.row + 1} / span ${dc.size_y}` }}
            >
              {kind ? (
                <TextCard kind={kind} settings={dc.visualization_settings} parameters={parameters} values={values} />
              ) : (
                <DashcardView
                  client={client}
                  dashcard={dc}
                  parameters={parameters}
                  values={values}
                  runKey={runKey}
                  theme={options.theme}
                  titled
                  downloads={!options.hideDownloadButton}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
