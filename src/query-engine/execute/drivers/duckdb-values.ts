import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBArrayValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimeValue,
  DuckDBBlobValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import { finiteOrNull, float32Number, isoFromEpochDays, isoFromEpochMicros, isoFromTimeMicros, jsonValue } from './values';

/** A DuckDB value in the shared conventions of values.ts. */
export function duckValue(v: DuckDBValue): unknown {
  // Null and the primitives convert as any driver's do; DuckDB's own value classes follow.
  if (v === null || typeof v !== 'object') return jsonValue(v);
  if (v instanceof DuckDBDecimalValue) return finiteOrNull(v.toDouble());
  if (v instanceof DuckDBTimestampTZValue) return isoFromEpochMicros(v.micros, true) ?? v.toString();
  if (v instanceof DuckDBTimestampValue) return isoFromEpochMicros(v.micros, false) ?? v.toString();
  if (v instanceof DuckDBTimestampSecondsValue) return isoFromEpochMicros(v.seconds * 1_000_000n, false) ?? v.toString();
  if (v instanceof DuckDBTimestampMillisecondsValue) return isoFromEpochMicros(v.millis * 1000n, false) ?? v.toString();
  if (v instanceof DuckDBTimestampNanosecondsValue) return isoFromEpochMicros(v.nanos / 1000n, false) ?? v.toString();
  if (v instanceof DuckDBDateValue) return isoFromEpochDays(v.days) ?? v.toString();
  if (v instanceof DuckDBTimeValue) return isoFromTimeMicros(v.micros);
  if (v instanceof DuckDBListValue || v instanceof DuckDBArrayValue) return v.items.map(duckValue);
  if (v instanceof DuckDBStructValue) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v.entries)) out[k] = duckValue(x);
    return out;
  }
  if (v instanceof DuckDBBlobValue) return Buffer.from(v.bytes).toString('base64');
  return v.toString();
}

/** FLOAT columns come widened to doubles; give them back their short decimal form. */
export function duckFloat(v: DuckDBValue): unknown {
  return typeof v === 'number' ? float32Number(v) : duckValue(v);
}
