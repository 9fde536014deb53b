import type { RowBatches, UploadColumn } from './bulk-loader';

const OFFSET_DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:Z|([+-])(\d{2}):?(\d{2})?)$/;

/**
 * The same instant in UTC, written `YYYY-MM-DD HH:MM:SS[.fraction]+00`. DuckDB's appender casts a text value into
 * TIMESTAMPTZ ignoring its offset (`10:00+05:30` would be stored as 10:00 UTC), so offsets are applied here. The
 * fraction is kept as written (microseconds and beyond survive; a JS Date would keep milliseconds only).
 */
export function toUtcText(v: string): string {
  const m = OFFSET_DATETIME.exec(v);
  if (!m) return v;
  const [, day, minute, second = '00', fraction = '', sign, hours, minutes = '00'] = m;
  const local = Date.parse(`${day}T${minute}:${second}Z`);
  if (Number.isNaN(local)) return v;
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) : 0;
  const utc = new Date(local - offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  return `${utc}${fraction}+00`;
}

/** The rows with every offset-datetime column's values in UTC; the rows as they are when there is none. */
export function offsetsInUtc(rows: RowBatches, columns: UploadColumn[]): RowBatches {
  const positions = columns.flatMap((c, i) => (c.type === 'offset-datetime' ? [i] : []));
  if (positions.length === 0) return rows;
  return (async function* () {
    for await (const batch of rows) {
      for (const row of batch) {
        for (const i of positions) {
          const v = row[i];
          if (v !== null) row[i] = toUtcText(v);
        }
      }
      yield batch;
    }
  })();
}
