import { isa } from '../fields';

/**
 * The bucketing and binning choices query_metadata offers (Metabase's `dimension_options`): a table-level map of
 * index -> option, and per field the indexes that apply and the default one. Indexes are positions in this list,
 * so its order is part of the wire format.
 */
interface DimensionOption {
  name: string;
  mbql: unknown[] | null;
  type: string;
}

const unit =
  (type: string) =>
  ([name, u]: [string, string]): DimensionOption => ({ name, mbql: ['field', null, { 'temporal-unit': u }], type });
const bins =
  (type: string) =>
  ([name, strategy, param]: [string, string, number | null]): DimensionOption => ({
    name,
    mbql: ['field', null, { binning: param === null ? { strategy } : { strategy, [strategy]: param } }],
    type,
  });

const DATE_UNITS: Array<[string, string]> = [
  ['Day', 'day'],
  ['Week', 'week'],
  ['Month', 'month'],
  ['Quarter', 'quarter'],
  ['Year', 'year'],
  ['Day of week', 'day-of-week'],
  ['Day of month', 'day-of-month'],
  ['Day of year', 'day-of-year'],
  ['Week of year', 'week-of-year'],
  ['Month of year', 'month-of-year'],
  ['Quarter of year', 'quarter-of-year'],
];
const DATETIME_UNITS: Array<[string, string]> = [
  ['Minute', 'minute'],
  ['Hour', 'hour'],
  ...DATE_UNITS.slice(0, 5),
  ['Minute of hour', 'minute-of-hour'],
  ['Hour of day', 'hour-of-day'],
  ...DATE_UNITS.slice(5),
];
const TIME_UNITS: Array<[string, string]> = [
  ['Minute', 'minute'],
  ['Hour', 'hour'],
  ['Minute of hour', 'minute-of-hour'],
];

const OPTIONS: DimensionOption[] = [
  ...DATE_UNITS.map(unit('type/Date')),
  ...DATETIME_UNITS.map(unit('type/DateTime')),
  ...TIME_UNITS.map(unit('type/Time')),
  ...(
    [
      ['Auto bin', 'default', null],
      ['10 bins', 'num-bins', 10],
      ['50 bins', 'num-bins', 50],
      ['100 bins', 'num-bins', 100],
    ] as Array<[string, string, number | null]>
  ).map(bins('type/Number')),
  { name: "Don't bin", mbql: null, type: 'type/Number' },
  ...(
    [
      ['Auto bin', 'default', null],
      ['Bin every 0.1 degrees', 'bin-width', 0.1],
      ['Bin every 1 degree', 'bin-width', 1.0],
      ['Bin every 10 degrees', 'bin-width', 10.0],
      ['Bin every 20 degrees', 'bin-width', 20.0],
    ] as Array<[string, string, number | null]>
  ).map(bins('type/Coordinate')),
  { name: "Don't bin", mbql: null, type: 'type/Coordinate' },
];

export const DIMENSION_OPTIONS: Record<string, DimensionOption> = Object.fromEntries(OPTIONS.map((o, i) => [String(i), o]));

const indexesOf = (type: string) => OPTIONS.flatMap((o, i) => (o.type === type ? [String(i)] : []));
const indexOf = (type: string, name: string) => String(OPTIONS.findIndex((o) => o.type === type && o.name === name));

const CHOICES = {
  time: [indexOf('type/Time', 'Hour'), indexesOf('type/Time')],
  date: [indexOf('type/Date', 'Day'), indexesOf('type/Date')],
  datetime: [indexOf('type/DateTime', 'Day'), indexesOf('type/DateTime')],
  coordinate: [indexOf('type/Coordinate', 'Auto bin'), indexesOf('type/Coordinate')],
  number: [indexOf('type/Number', 'Auto bin'), indexesOf('type/Number')],
} as const;

interface FieldLike {
  base_type: string;
  effective_type: string | null;
  semantic_type: string | null;
  fingerprint: { type?: { 'type/Number'?: { min: number | null; max: number | null } } } | null;
}

/** Which options apply to a field: units by its temporal type, binning for numbers with a known range. */
export function fieldDimensionOptions(
  f: FieldLike,
  binning: boolean,
): { default_dimension_option: string | null; dimension_options: string[] } {
  const types = [f.base_type, f.effective_type ?? f.base_type];
  const is = (t: string) => types.some((x) => isa(x, t));
  const range = f.fingerprint?.type?.['type/Number'];
  const hasRange = range?.min !== null && range?.min !== undefined && range?.max !== null && range?.max !== undefined;
  let choice: readonly [string, readonly string[]] | null = null;
  if (is('type/Time')) choice = CHOICES.time;
  else if (is('type/Date')) choice = CHOICES.date;
  else if (is('type/Temporal')) choice = CHOICES.datetime;
  else if (hasRange && binning && isa(f.semantic_type, 'type/Coordinate')) choice = CHOICES.coordinate;
  else if (hasRange && binning && is('type/Number') && !isa(f.semantic_type, 'Relation/*')) choice = CHOICES.number;
  return { default_dimension_option: choice ? choice[0] : null, dimension_options: choice ? [...choice[1]] : [] };
}
