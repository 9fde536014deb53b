import { useCallback } from 'react';
import type { Parameter, ParamValues, ValuesAnswer } from '../api/types';
import { DateWidget } from './DateWidget';
import { ListWidget } from './ListWidget';
import { NumberWidget } from './NumberWidget';
import { fromStrings, widgetKind } from './values';

export interface ParameterBarProps {
  parameters: Parameter[];
  values: ParamValues;
  /** Slugs not to show (`#hide_parameters=`); their values still apply. */
  hidden?: string[];
  onChange: (id: string, value: unknown) => void;
  loadValues: (parameter: Parameter, query: string | null, values: ParamValues) => Promise<ValuesAnswer>;
}

/** The filter widgets of a dashboard or question, one per parameter the API lists (an embed's locked ones are not listed). */
export function ParameterBar(props: ParameterBarProps) {
  const shown = props.parameters.filter((p) => !(props.hidden ?? []).includes(p.slug));
  if (shown.length === 0) return null;
  return (
    <div className="parameters" data-testid="parameters">
      {shown.map((p) => (
        <ParameterWidget
          key={p.id}
          parameter={p}
          value={props.values[p.id]}
          values={props.values}
          onChange={(v) => props.onChange(p.id, v)}
          loadValues={props.loadValues}
        />
      ))}
    </div>
  );
}

function ParameterWidget(props: {
  parameter: Parameter;
  value: unknown;
  values: ParamValues;
  onChange: (v: unknown) => void;
  loadValues: ParameterBarProps['loadValues'];
}) {
  const p = props.parameter;
  const { loadValues, values } = props;
  const load = useCallback(
    (query: string | null) => {
      const static_ = p.values_source_type === 'static-list' ? p.values_source_config?.values : undefined;
      if (static_) return Promise.resolve({ values: static_ });
      return loadValues(p, query, values);
    },
    // Re-fetch when another parameter's value changes (chain filters).
    [p, loadValues, values],
  );
  const kind = widgetKind(p);
  const asList = (v: unknown): string[] | null => (v === null || v === undefined ? null : (Array.isArray(v) ? v : [v]).map(String));
  return (
    <div
      className="parameter"
      data-testid="parameter"
      data-slug={p.slug}
      data-kind={kind}
      data-value={props.value === undefined ? undefined : JSON.stringify(props.value)}
    >
      <span className="parameter-name">{p.name}</span>
      {kind === 'date' && (
        <DateWidget type={p.type} label={p.name} value={typeof props.value === 'string' ? props.value : null} onChange={props.onChange} />
      )}
      {kind === 'number' && (
        <NumberWidget
          type={p.type}
          label={p.name}
          value={
            props.value === null || props.value === undefined
              ? null
              : (Array.isArray(props.value) ? props.value : [props.value]).map(Number)
          }
          onChange={props.onChange}
        />
      )}
      {kind === 'list' && <ListWidget label={p.name} value={asList(props.value)} load={load} onChange={props.onChange} />}
      {kind === 'text' && (
        <input
          aria-label={p.name}
          defaultValue={asList(props.value)?.join(', ') ?? ''}
          onKeyDown={(e) => e.key === 'Enter' && props.onChange(fromStrings(p, [(e.target as HTMLInputElement).value]))}
          onBlur={(e) => props.onChange(fromStrings(p, [e.target.value]))}
        />
      )}
    </div>
  );
}
