import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ExportFormat, Parameter, ParamValues, Question, QuestionClient, QueryResult } from '../api/types';
import { CardError, CardFrame, type CardState, Spinner } from '../dashboard/CardFrame';
import { queryError } from '../dashboard/DashcardView';
import { DownloadMenu } from '../dashboard/DownloadMenu';
import { ParameterBar } from '../parameters/ParameterBar';
import { initialValues } from '../parameters/values';
import { Visualization, type Theme } from '../visualizations';

export interface QuestionOptions {
  theme: Theme;
  titled: boolean;
  hideParameters: string[];
  hideDownloadButton: boolean;
}

/** A question: its title, parameter widgets, visualization and download button, through `client`. */
export function QuestionView(props: {
  client: QuestionClient;
  options?: Partial<QuestionOptions>;
  defaults?: Record<string, string[]>;
  onLoadError?: (e: Error) => void;
}) {
  const options: QuestionOptions = { theme: 'light', titled: true, hideParameters: [], hideDownloadButton: false, ...props.options };
  const { client, onLoadError } = props;
  const [question, setQuestion] = useState<Question | null>(null);
  const [values, setValues] = useState<ParamValues | null>(null);
  const [result, setResult] = useState<{ state: CardState; data?: QueryResult; error?: string }>({ state: 'loading' });
  const defaultsKey = JSON.stringify(props.defaults ?? {});

  useEffect(() => {
    let live = true;
    client
      .loadQuestion()
      .then((q) => {
        if (!live) return;
        setQuestion(q);
        setValues(initialValues(q.parameters ?? [], JSON.parse(defaultsKey)));
      })
      .catch((e: Error) => live && onLoadError?.(e));
    return () => {
      live = false;
    };
  }, [client, onLoadError, defaultsKey]);

  const parameters: Parameter[] = useMemo(() => question?.parameters ?? [], [question]);
  useEffect(() => {
    if (!question || !values) return;
    const ctl = new AbortController();
    setResult((r) => ({ ...r, state: 'loading' }));
    client
      .runQuestion(values, parameters, { pivot: question.display === 'pivot', signal: ctl.signal })
      .then((data) => {
        const error = queryError(data);
        setResult(error ? { state: 'error', error } : { state: 'ready', data });
      })
      .catch((e: Error) => !ctl.signal.aborted && setResult({ state: 'error', error: e.message }));
    return () => ctl.abort();
  }, [client, question, values, parameters]);

  const change = useCallback((id: string, value: unknown) => setValues((v) => ({ ...v, [id]: value })), []);
  const loadValues = useCallback((p: Parameter, q: string | null, v: ParamValues) => client.parameterValues(p, q, v), [client]);

  if (!question || !values) {
    return (
      <div className="question" data-testid="question" data-state="loading">
        <Spinner />
      </div>
    );
  }
  const download = (format: ExportFormat) => client.downloadQuestion(format, values, parameters);
  return (
    <div className="question" data-testid="question" data-state={result.state}>
      <ParameterBar parameters={parameters} values={values} hidden={options.hideParameters} onChange={change} loadValues={loadValues} />
      <CardFrame
        testId="question-card"
        state={result.state}
        title={options.titled ? question.name : null}
        description={question.description}
        actions={
          !options.hideDownloadButton && result.state === 'ready' ? (
            <DownloadMenu formats={['csv', 'xlsx', 'json']} onDownload={download} />
          ) : null
        }
      >
        {result.state === 'error' && <CardError message={result.error ?? ''} />}
        {result.state === 'loading' && !result.data && <Spinner />}
        {result.data && result.state !== 'error' && (
          <div className={result.state === 'loading' ? 'viz reloading' : 'viz'}>
            <Visualization
              display={question.display}
              settings={question.visualization_settings ?? {}}
              data={result.data.data}
              theme={options.theme}
            />
          </div>
        )}
      </CardFrame>
    </div>
  );
}
