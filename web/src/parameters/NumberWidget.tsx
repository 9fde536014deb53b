import { useState } from 'react';

/** A number filter: one number (or several, comma-separated), or two for `number/between`; applied on Enter or leaving the box. */
export function NumberWidget(props: { type: string; label: string; value: number[] | null; onChange: (v: number[] | null) => void }) {
  const between = props.type === 'number/between';
  const [text, setText] = useState<string[]>(
    between ? [String(props.value?.[0] ?? ''), String(props.value?.[1] ?? '')] : [(props.value ?? []).join(', ')],
  );
  const commit = (parts: string[]) => {
    const nums = parts
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number);
    if (nums.some((n) => !Number.isFinite(n))) return;
    if (between && nums.length !== 2) return props.onChange(nums.length === 0 ? null : props.value);
    props.onChange(nums.length ? nums : null);
  };
  const input = (i: number, label: string) => (
    <input
      key={i}
      inputMode="decimal"
      aria-label={label}
      placeholder={label}
      value={text[i]}
      onChange={(e) => setText(text.map((t, j) => (j === i ? e.target.value : t)))}
      onBlur={() => commit(text)}
      onKeyDown={(e) => e.key === 'Enter' && commit(text)}
    />
  );
  return (
    <span className="number-widget">
      {between ? [input(0, `${props.label} min`), input(1, `${props.label} max`)] : input(0, props.label)}
    </span>
  );
}
