import { useEffect, useMemo, useState } from 'react';
import type { Dashcard, DashboardClient, ExportFormat, Parameter, ParamValues, QueryResult } from '../api/types';
import { saveText } from '../api/http';
import { Visualization, type Theme } from '../visualizations';
import { CardError, CardFrame, type CardState, Spinner } from './CardFrame';
import { DownloadMenu } from './DownloadMenu';
import { fileName, toCsv, toJson } from './download';

/** The error a failed query answers with (202 and `status: "failed"`), as text. */
export function queryError(r: QueryResult): string | null {
  if (r.status !== 'failed' && !r.error) return null;
  return typeof r.error === 'string' ? r.error : 'The query failed.';
}

/**
 * One question on a dashboard: runs it when `runKey` changes (the values of the parameters mapped to it, or a
 * refresh), shows its loading and error states, its title and description, and its download menu.
 */
export function DashcardView(props: {
  client: DashboardClient;
  dashcard: Dashcard;
  parameters: Parameter[];
  values: ParamValues;
  runKey: string;
  theme: Theme;
  titled: boolean;
  downloads: boolean;
}) {
  const { dashcard, client } = props;
  const card = dashcard.card!;
  // One object per dashcard: a new one each render would make the visualization draw again (and report loading).
  const settings = useMemo(() => ({ ...card.visualization_settings, ...dashcard.visualization_settings }), [card, dashcard]);
  const display = card.display;
  const [result, setResult] = useState<{ state: CardState; data?: QueryResult; error?: string }>({ state: 'loading' });

  useEffect(() => {
    const ctl = new AbortController();
    setResult((r) => ({ ...r, state: 'loading' }));
    client
      .runDashcard(dashcard, card.id, props.values, props.parameters, { pivot: display === 'pivot', signal: ctl.signal })
      .then((data) => {
        const error = queryError(data);
        setResult(error ? { state: 'error', error } : { state: 'ready', data });
      })
      .catch((e: Error) => {
        if (!ctl.signal.aborted) setResult({ state: 'error', error: e.message });
      });
    return () => ctl.abort();
    // props.values is read through runKey: only the values mapped to this card re-run it.
  }, [props.runKey, client, dashcard, card.id, display]);

  const title = settings['card.hide_title'] === true ? null : String(settings['card.title'] ?? card.name ?? '');
  const description = (settings['card.description'] as string | undefined) ?? card.description ?? null;
  const download = async (format: ExportFormat) => {
    if (client.downloadDashcard) return client.downloadDashcard(dashcard, card.id, format, props.values, props.parameters);
    if (!result.data) return;
    if (format === 'csv') saveText(toCsv(result.data.data), fileName(card.name, 'csv'), 'text/csv');
    else saveText(toJson(result.data.data), fileName(card.name, 'json'), 'application/json');
  };
  const formats: ExportFormat[] = client.downloadDashcard ? ['csv', 'xlsx', 'json'] : ['csv', 'json'];

  return (
    <CardFrame
      testId="dashcard"
      id={dashcard.id}
      state={result.state}
      title={props.titled ? title : null}
      description={description}
      actions={props.downloads && result.state === 'ready' ? <DownloadMenu formats={formats} onDownload={download} /> : null}
    >
      {result.state === 'error' && <CardError message={result.error ?? ''} />}
      {result.state === 'loading' && !result.data && <Spinner />}
      {result.data && result.state !== 'error' && (
        <div className={result.state === 'loading' ? 'viz reloading' : 'viz'}>
          <Visualization display={display} settings={settings} data={result.data.data} theme={props.theme} />
        </div>
      )}
    </CardFrame>
  );
}
