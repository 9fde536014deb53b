import { useState } from 'react';
import { parameterKey, type ApiParameter, type ParameterValue, type ParameterValues } from './parameters';

/** One text field per visible parameter (comma-separated for several values); applied on Enter or leaving the field. */
export function ParameterBar({
  parameters,
  values,
  onChange,
}: {
  parameters: ApiParameter[];
  values: ParameterValues;
  onChange: (v: ParameterValues) => void;
}) {
  if (parameters.length === 0) return null;
  return (
    <div data-testid="analytics-parameters" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, padding: '8px 0' }}>
      {parameters.map((p) => (
        <ParameterField
          key={p.id}
          parameter={p}
          value={values[parameterKey(p)]}
          onApply={(v) => onChange({ ...values, [parameterKey(p)]: v })}
        />
      ))}
    </div>
  );
}

function ParameterField({
  parameter,
  value,
  onApply,
}: {
  parameter: ApiParameter;
  value: ParameterValue | undefined;
  onApply: (v: ParameterValue) => void;
}) {
  const shown = value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  const [text, setText] = useState(shown);
  const apply = () => {
    if (text === shown) return;
    const parts = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const numeric = parameter.type.startsWith('number');
    const typed = parts.map((s) => (numeric && !Number.isNaN(Number(s)) ? Number(s) : s));
    onApply(typed.length === 0 ? null : typed);
  };
  return (
    <label style={{ display: 'flex', flexDirection: 'column', fontSize: 12, gap: 2 }}>
      <span>{parameter.name ?? parameterKey(parameter)}</span>
      <input
        data-parameter={parameterKey(parameter)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
        style={{
          padding: '4px 6px',
          border: '1px solid var(--analytics-border)',
          borderRadius: 4,
          background: 'transparent',
          color: 'inherit',
        }}
      />
    </label>
  );
}
