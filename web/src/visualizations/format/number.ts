/**
 * Number formatting as Metabase's column settings describe it: `number_style` (decimal, percent, scientific,
 * currency), `currency` / `currency_style`, `decimals`, `scale`, `prefix` / `suffix`, `number_separators`.
 * Pure (Intl only), so the same text comes out in the browser and in the unit tests.
 */

export interface NumberOptions {
  number_style?: string;
  currency?: string;
  currency_style?: string;
  currency_in_header?: boolean;
  decimals?: number | null;
  scale?: number;
  prefix?: string;
  suffix?: string;
  number_separators?: string;
  /** Short form for axes and scalars: 1.2k, 3.4M. */
  compact?: boolean;
}

export function formatNumber(value: number, o: NumberOptions = {}): string {
  if (!Number.isFinite(value)) return String(value);
  const scaled = value * (o.scale ?? 1);
  const style = o.number_style ?? 'decimal';
  const text = style === 'scientific' ? scientific(scaled, o.decimals) : o.compact ? compact(scaled, o) : plain(scaled, style, o);
  return `${o.prefix ?? ''}${separators(text, o.number_separators)}${o.suffix ?? ''}`;
}

function plain(value: number, style: string, o: NumberOptions): string {
  const digits = o.decimals ?? undefined;
  const opts: Intl.NumberFormatOptions = { useGrouping: true };
  if (style === 'percent') {
    opts.style = 'percent';
    opts.maximumFractionDigits = digits ?? 2;
    opts.minimumFractionDigits = digits ?? 0;
  } else if (style === 'currency' && o.currency) {
    opts.style = 'currency';
    opts.currency = o.currency;
    opts.currencyDisplay = o.currency_style === 'code' ? 'code' : o.currency_style === 'name' ? 'name' : 'symbol';
    if (digits !== undefined) {
      opts.minimumFractionDigits = digits;
      opts.maximumFractionDigits = digits;
    }
  } else {
    opts.maximumFractionDigits = digits ?? (Math.abs(value) >= 1 ? 2 : 6);
    opts.minimumFractionDigits = digits ?? 0;
  }
  return new Intl.NumberFormat('en-US', opts).format(value);
}

function scientific(value: number, decimals?: number | null): string {
  const text = value.toExponential(decimals ?? undefined);
  return decimals === undefined || decimals === null ? text.replace(/\.?0+e/, 'e') : text;
}

const UNITS: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

function compact(value: number, o: NumberOptions): string {
  const abs = Math.abs(value);
  if (o.number_style === 'percent') return plain(value, 'percent', { ...o, decimals: o.decimals ?? (abs < 0.1 ? 1 : 0) });
  const unit = UNITS.find(([n]) => abs >= n);
  const currency = o.number_style === 'currency' && o.currency ? o.currency : undefined;
  if (!unit) {
    if (o.decimals !== undefined && o.decimals !== null) return plain(value, o.number_style ?? 'decimal', o);
    // Up to 1 (or 2 below 1) decimals, none when the number is whole: axis ticks read 0, 0.5, 20, 12.5.
    const max = abs >= 100 ? 0 : abs >= 1 ? 1 : 2;
    if (o.number_style === 'currency' && o.currency)
      return new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: o.currency,
        minimumFractionDigits: 0,
        maximumFractionDigits: max,
      }).format(value);
    return new Intl.NumberFormat('en-US', { maximumFractionDigits: max }).format(value);
  }
  const short = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value / unit[0]) + unit[1];
  if (!currency) return short;
  const symbol =
    new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value ?? '';
  return value < 0 ? `-${symbol}${short.slice(1)}` : `${symbol}${short}`;
}

/** `number_separators` is "<decimal><grouping>" as Metabase stores it: ".,", ", ", ",.", ".'" or "." (no grouping). */
function separators(text: string, seps?: string): string {
  if (!seps || seps === '.,') return text;
  const decimal = seps[0] ?? '.';
  const group = seps[1] ?? '';
  return text.replace(/[.,]/g, (c) => (c === '.' ? decimal : group));
}
