import type { Binning, TemporalUnit } from '../mbql/types';
import type { FieldMeta } from '../metadata';
import { resolveBinning } from './binning';
import { zoned, type ClauseContext } from './clause-context';
import { QueryCompileError } from './contract';
import type { ExtractionUnit } from './dialect';
import { withUnitDisplay } from './names';
import { literalNumber, where } from './params';
import { isTruncation } from './temporal';
import { isDateType, isTemporal, type Resolved } from './types';

/**
 * A reference's `temporal-unit`: a truncation (the start of its minute, day, month...) in the report time zone, or an
 * extraction (its hour of day, month of year...). `raw` keeps the unbucketed column, for range filters and order.
 */
export function bucketed(cx: Pick<ClauseContext, 'd' | 'opts' | 'clause'>, r: Resolved, unit: TemporalUnit, fieldRef: unknown[]): Resolved {
  const raw = { sql: r.sql, type: r.type };
  if (!isTemporal(r.type) && r.type !== null && r.type !== 'type/*') {
    throw new QueryCompileError(`Cannot bucket ${r.col.name} by ${unit}: it is not a date or time${where(cx.clause)}.`, cx.clause);
  }
  const col = { ...r.col, unit, display_name: withUnitDisplay(r.col.display_name, unit), field_ref: fieldRef };
  const x = zoned(cx, r).sql;
  if (isTruncation(unit)) {
    const date = isDateType(r.type) && !['minute', 'hour'].includes(unit);
    return {
      sql: cx.d.truncate(x, unit, date),
      type: date ? 'type/Date' : 'type/DateTime',
      col: { ...col, base_type: date ? 'type/Date' : 'type/DateTime', effective_type: date ? 'type/Date' : 'type/DateTime' },
      direct: false,
      raw,
      unit,
    };
  }
  // validate.ts: a unit that is not a truncation is an extraction.
  return {
    sql: cx.d.extract(x, unit as ExtractionUnit),
    type: 'type/Integer',
    col: { ...col, base_type: 'type/Integer', effective_type: 'type/Integer', semantic_type: null },
    direct: false,
    raw,
    unit,
  };
}

/**
 * A reference's `binning`: the start of its bin, `min + FLOOR((x - min) / width) * width`, with the bins resolved
 * from the strategy and `field`'s fingerprint (binning.ts); every number goes into the SQL as a checked literal.
 */
export function binned(
  cx: Pick<ClauseContext, 'd' | 'clause'>,
  r: Resolved,
  binning: Binning,
  fieldRef: unknown[],
  field: FieldMeta,
): Resolved {
  const b = resolveBinning(binning, field, r.col.semantic_type, cx.clause);
  const min = literalNumber(b.minValue, 'The binning minimum', cx.clause);
  const width = literalNumber(b.binWidth, 'bin-width', cx.clause);
  const sql = `((FLOOR(${cx.d.floatCast(`(${r.sql} - ${min})`)} / ${width}) * ${width}) + ${min})`;
  return {
    sql,
    type: 'type/Float',
    col: {
      ...r.col,
      field_ref: fieldRef,
      base_type: r.col.base_type,
      binning_info: {
        strategy: b.strategy,
        'bin-width': b.binWidth,
        'num-bins': b.numBins,
        min_value: b.minValue,
        max_value: b.maxValue,
      },
    },
    direct: false,
    raw: { sql: r.sql, type: r.type },
  };
}
