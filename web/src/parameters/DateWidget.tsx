import { useState } from 'react';

/** Metabase's relative date values (the `past30days` style strings the API takes). */
export const RELATIVE_DATES: Array<[string, string]> = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['past7days', 'Past 7 days'],
  ['past30days', 'Past 30 days'],
  ['past3months', 'Past 3 months'],
  ['past12months', 'Past 12 months'],
  ['thisweek', 'This week'],
  ['thismonth', 'This month'],
  ['thisquarter', 'This quarter'],
  ['thisyear', 'This year'],
  ['lastweek', 'Last week'],
  ['lastmonth', 'Last month'],
  ['lastquarter', 'Last quarter'],
  ['lastyear', 'Last year'],
  ['past5years', 'Past 5 years'],
];

type Mode = 'relative' | 'on' | 'between' | 'before' | 'after';

function modeOf(v: string, type: string): Mode {
  if (/^\d{4}-\d{2}-\d{2}~\d{4}-\d{2}-\d{2}$/.test(v)) return 'between';
  if (v.startsWith('~')) return 'before';
  if (v.endsWith('~')) return 'after';
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) return 'on';
  if (v) return 'relative';
  return type === 'date/range' ? 'between' : type === 'date/single' ? 'on' : 'relative';
}

/**
 * A date filter: a relative period, one exact date, a range, or before/after a date (`2024-01-31`, `2024-01-01~2024-03-31`,
 * `~2024-01-01`).
 */
export function DateWidget(props: { type: string; value: string | null; label: string; onChange: (v: string | null) => void }) {
  const value = props.value ?? '';
  const [mode, setMode] = useState<Mode>(modeOf(value, props.type));
  const [from, to] = value.includes('~') ? value.split('~') : [value, ''];
  const exact = mode !== 'relative';
  // The two ends of a range are kept here until both are chosen.
  const [range, setRange] = useState<[string, string]>(mode === 'between' && value.includes('~') ? [from, to] : ['', '']);
  const setEnd = (i: 0 | 1, v: string) => {
    const next: [string, string] = i === 0 ? [v, range[1]] : [range[0], v];
    setRange(next);
    if (next[0] && next[1]) props.onChange(`${next[0]}~${next[1]}`);
    else if (!next[0] && !next[1]) props.onChange(null);
  };
  const set = (v: string | null) => props.onChange(v || null);
  return (
    <span className="date-widget" data-mode={mode}>
      <select aria-label={`${props.label} kind`} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
        <option value="relative">Relative</option>
        <option value="on">On</option>
        <option value="between">Between</option>
        <option value="before">Before</option>
        <option value="after">After</option>
      </select>
      {!exact && (
        <select
          aria-label={props.label}
          value={RELATIVE_DATES.some(([k]) => k === value) ? value : ''}
          onChange={(e) => set(e.target.value)}
        >
          <option value="">All time</option>
          {RELATIVE_DATES.map(([k, name]) => (
            <option key={k} value={k}>
              {name}
            </option>
          ))}
        </select>
      )}
      {mode === 'on' && (
        <input
          type="date"
          aria-label={props.label}
          value={/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : ''}
          onChange={(e) => set(e.target.value)}
        />
      )}
      {mode === 'before' && (
        <input type="date" aria-label={props.label} value={to} onChange={(e) => set(e.target.value ? `~${e.target.value}` : null)} />
      )}
      {mode === 'after' && (
        <input
          type="date"
          aria-label={props.label}
          value={value.endsWith('~') ? from : ''}
          onChange={(e) => set(e.target.value ? `${e.target.value}~` : null)}
        />
      )}
      {mode === 'between' && (
        <>
          <input type="date" aria-label={`${props.label} from`} value={range[0]} onChange={(e) => setEnd(0, e.target.value)} />
          <input type="date" aria-label={`${props.label} to`} value={range[1]} onChange={(e) => setEnd(1, e.target.value)} />
        </>
      )}
    </span>
  );
}
