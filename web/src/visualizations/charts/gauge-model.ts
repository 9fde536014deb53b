/** Gauge segments (`gauge.segments`: [{min, max, color, label}]) and the default three of Metabase (red, yellow, green). */
export interface Segment {
  min: number;
  max: number;
  color: string;
  label?: string;
}

/** A round upper bound a bit above the value: 1, 2 or 5 times a power of ten. */
export function niceMax(value: number): number {
  const v = Math.abs(value) * 1.2 || 1;
  const pow = 10 ** Math.floor(Math.log10(v));
  const m = [1, 2, 2.5, 5, 10].find((k) => k * pow >= v) ?? 10;
  return m * pow;
}

export function gaugeSegments(value: number, raw: unknown): Segment[] {
  if (Array.isArray(raw) && raw.length) {
    return (raw as Array<Partial<Segment>>)
      .map((s) => ({ min: Number(s.min ?? 0), max: Number(s.max ?? 0), color: String(s.color ?? '#509EE3'), label: s.label }))
      .filter((s) => Number.isFinite(s.min) && Number.isFinite(s.max) && s.max > s.min)
      .sort((a, b) => a.min - b.min);
  }
  const max = niceMax(value);
  return [
    { min: 0, max: max / 3, color: '#ED6E6E' },
    { min: max / 3, max: (2 * max) / 3, color: '#F9CF48' },
    { min: (2 * max) / 3, max, color: '#84BB4C' },
  ];
}
