import { useEffect, useMemo, useState } from 'react';
import type { ValuesAnswer } from '../api/types';

/** The [value, label?] pairs a values endpoint answers, or plain values. */
function options(answer: ValuesAnswer | null): Array<{ value: string; label: string }> {
  return (answer?.values ?? []).map((v) => {
    const pair = Array.isArray(v) ? v : [v];
    return { value: String(pair[0]), label: String(pair[1] ?? pair[0]) };
  });
}

/**
 * A list filter (categories, strings, locations, IDs): the values the server offers (a search request per typed
 * prefix when the list is long), chosen ones shown as removable chips; any typed value can be added with Enter.
 */
export function ListWidget(props: {
  label: string;
  value: string[] | null;
  load: (query: string | null) => Promise<ValuesAnswer>;
  onChange: (v: string[] | null) => void;
}) {
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<ValuesAnswer | null>(null);
  const [open, setOpen] = useState(false);
  const chosen = props.value ?? [];
  const { load } = props;

  useEffect(() => {
    if (!open) return;
    let live = true;
    const search = query.trim() && answer?.has_more_values ? query.trim() : null;
    const timer = setTimeout(
      () => {
        load(search)
          .then((a) => live && setAnswer(a))
          .catch(() => live && setAnswer({ values: [] }));
      },
      search ? 250 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The full list once; a search per prefix only when the server said the list has more.
  }, [open, query, load]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return options(answer)
      .filter((o) => !q || o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q))
      .slice(0, 200);
  }, [answer, query]);

  const toggle = (v: string) => {
    const next = chosen.includes(v) ? chosen.filter((x) => x !== v) : [...chosen, v];
    props.onChange(next.length ? next : null);
  };

  return (
    <span className="list-widget">
      {chosen.map((v) => (
        <button type="button" key={v} className="chip" title="Remove" onClick={() => toggle(v)}>
          {v} ×
        </button>
      ))}
      <input
        aria-label={props.label}
        placeholder={chosen.length ? '' : props.label}
        value={query}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && query.trim()) {
            if (!chosen.includes(query.trim())) toggle(query.trim());
            setQuery('');
          }
        }}
      />
      {open && shown.length > 0 && (
        <ul className="list-options" role="listbox" aria-label={`${props.label} values`}>
          {shown.map((o) => (
            <li
              key={o.value}
              role="option"
              aria-selected={chosen.includes(o.value)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => toggle(o.value)}
            >
              {o.label}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
