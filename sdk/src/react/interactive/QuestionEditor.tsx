import { useState } from 'react';
import { buttonStyle } from '../CardView';
import type { AddedFilter, AggregationKind, FilterOp, Summary } from './adhoc-query';

export interface EditorField {
  id: number;
  name: string;
  display_name: string;
  base_type: string;
}

const inputStyle = {
  padding: '3px 6px',
  border: '1px solid var(--analytics-border)',
  borderRadius: 4,
  background: 'transparent',
  color: 'inherit',
  fontSize: 12,
} as const;
const isTemporal = (f: EditorField) => /Date|Time/.test(f.base_type);
const isNumeric = (f: EditorField) => /Integer|Float|Decimal|Number|BigInteger/.test(f.base_type);

/** The filter form: a column, an operator and a value. */
export function FilterForm({ fields, onAdd }: { fields: EditorField[]; onAdd: (f: AddedFilter) => void }) {
  const [fieldId, setFieldId] = useState(fields[0]?.id ?? 0);
  const [op, setOp] = useState<FilterOp>('=');
  const [value, setValue] = useState('');
  const field = fields.find((f) => f.id === fieldId);
  const add = () => {
    if (!field || value === '') return;
    onAdd({ fieldId, op, value: isNumeric(field) && !Number.isNaN(Number(value)) ? Number(value) : value });
    setValue('');
  };
  return (
    <div data-testid="analytics-filter-form" style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
      <select aria-label="Filter column" value={fieldId} onChange={(e) => setFieldId(Number(e.target.value))} style={inputStyle}>
        {fields.map((f) => (
          <option key={f.id} value={f.id}>
            {f.display_name}
          </option>
        ))}
      </select>
      <select aria-label="Filter operator" value={op} onChange={(e) => setOp(e.target.value as FilterOp)} style={inputStyle}>
        <option value="=">is</option>
        <option value="!=">is not</option>
        <option value=">">greater than</option>
        <option value="<">less than</option>
        <option value="contains">contains</option>
      </select>
      <input
        aria-label="Filter value"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && add()}
        style={inputStyle}
      />
      <button type="button" onClick={add} style={buttonStyle}>
        Add filter
      </button>
    </div>
  );
}

/** The summarize form: an aggregation (of a column) and an optional grouping column. */
export function SummarizeForm({ fields, onApply }: { fields: EditorField[]; onApply: (s: Summary) => void }) {
  const numeric = fields.filter(isNumeric);
  const [aggregation, setAggregation] = useState<AggregationKind>('count');
  const [fieldId, setFieldId] = useState(numeric[0]?.id ?? 0);
  const [by, setBy] = useState(0);
  const apply = () => {
    const group = fields.find((f) => f.id === by);
    onApply({
      aggregation,
      fieldId: aggregation === 'count' ? undefined : fieldId,
      breakout: group ? { fieldId: group.id, temporal: isTemporal(group) } : undefined,
    });
  };
  return (
    <div data-testid="analytics-summarize-form" style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
      <select
        aria-label="Aggregation"
        value={aggregation}
        onChange={(e) => setAggregation(e.target.value as AggregationKind)}
        style={inputStyle}
      >
        <option value="count">Count of rows</option>
        <option value="sum">Sum of</option>
        <option value="avg">Average of</option>
        <option value="min">Minimum of</option>
        <option value="max">Maximum of</option>
        <option value="distinct">Distinct values of</option>
      </select>
      {aggregation !== 'count' && (
        <select aria-label="Aggregated column" value={fieldId} onChange={(e) => setFieldId(Number(e.target.value))} style={inputStyle}>
          {(aggregation === 'distinct' ? fields : numeric).map((f) => (
            <option key={f.id} value={f.id}>
              {f.display_name}
            </option>
          ))}
        </select>
      )}
      <span style={{ fontSize: 12 }}>by</span>
      <select aria-label="Group by" value={by} onChange={(e) => setBy(Number(e.target.value))} style={inputStyle}>
        <option value={0}>nothing</option>
        {fields.map((f) => (
          <option key={f.id} value={f.id}>
            {f.display_name}
          </option>
        ))}
      </select>
      <button type="button" onClick={apply} style={buttonStyle}>
        Summarize
      </button>
    </div>
  );
}
