import { endianness } from 'node:os';
import { type DuckDBDataChunk, type DuckDBType, DuckDBTypeId } from '@duckdb/node-api';
import { duckFloat, duckValue } from './duckdb-values';
import { finiteOrNull, float32Number, isoFromEpochDays, isoFromSafeMicros } from './values';

// The native binding's exports are not enumerable, so a namespace import (as compiled for tests) sees none of them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bindings = require('@duckdb/node-bindings') as typeof import('@duckdb/node-bindings');

/**
 * A chunk's rows in the conventions of values.ts, read a column at a time. The fixed-width types most results are
 * made of are read straight from the vector's memory (DuckDB's C API: its data and validity buffers): a 64-bit
 * integer or timestamp from its two 32-bit halves, with no BigInt per value and no value object per timestamp,
 * which is what @duckdb/node-api's getRows() makes (its validity check alone builds BigInts per value). Every
 * other type, and a value out of the fast path's range, goes value by value through the vector (duckValue).
 */
export function chunkRows(chunk: DuckDBDataChunk, take: number, readers: readonly ColumnReader[]): unknown[][] {
  const rows: unknown[][] = new Array(take);
  for (let r = 0; r < take; r++) rows[r] = new Array(readers.length);
  for (let c = 0; c < readers.length; c++) readers[c](chunk, c, take, rows);
  return rows;
}

export type ColumnReader = (chunk: DuckDBDataChunk, column: number, take: number, rows: unknown[][]) => void;

/** One reader per result column, chosen once per result by the column's type. */
export function columnReaders(types: readonly DuckDBType[]): ColumnReader[] {
  return types.map((t) => (FAST_PATH ? (READERS[t.typeId] ?? slow(t)) : slow(t)));
}

// Typed arrays over DuckDB's buffers read them in the machine's byte order; the validity bits are read as bytes,
// which is their order only on a little-endian machine. Anywhere else every column takes the slow path.
const FAST_PATH = endianness() === 'LE';

type Typed = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
type TypedOf = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): Typed; BYTES_PER_ELEMENT: number };

/** Rows past `take` are never read; the chunk's rowCount sizes the buffers DuckDB hands over. */
function buffers(chunk: DuckDBDataChunk, column: number, bytesPerItem: number) {
  const vector = bindings.data_chunk_get_vector(chunk.chunk, column);
  const count = chunk.rowCount;
  const data = bindings.vector_get_data(vector, count * bytesPerItem);
  // None when every value of the column is valid.
  const validity = (bindings.vector_get_validity(vector, Math.ceil(count / 64) * 8) as Uint8Array | null | undefined) ?? null;
  return { data, validity };
}

function isValid(validity: Uint8Array | null, r: number): boolean {
  return validity === null || ((validity[r >> 3] >> (r & 7)) & 1) === 1;
}

/** Falls back to the value-by-value path when a buffer is not aligned for its typed array (DuckDB aligns them). */
function typed(chunk: DuckDBDataChunk, column: number, take: number, rows: unknown[][], Type: TypedOf, to: (v: number) => unknown): void {
  const { data, validity } = buffers(chunk, column, Type.BYTES_PER_ELEMENT);
  if (data.byteOffset % Type.BYTES_PER_ELEMENT !== 0)
    return slowRead(Type === Float32Array ? duckFloat : duckValue)(chunk, column, take, rows);
  const items = new Type(data.buffer, data.byteOffset, chunk.rowCount);
  for (let r = 0; r < take; r++) rows[r][column] = isValid(validity, r) ? to(items[r]) : null;
}

/**
 * A 64-bit column as pairs of 32-bit halves. `to` gets the value as a double when it is a safe integer
 * (|v| < 2^53); a value beyond that goes to the value-by-value path, as does the whole column if unaligned.
 */
function int64(chunk: DuckDBDataChunk, column: number, take: number, rows: unknown[][], to: (v: number) => unknown): void {
  const { data, validity } = buffers(chunk, column, 8);
  if (data.byteOffset % 4 !== 0) return slowRead(duckValue)(chunk, column, take, rows);
  const halves = new Int32Array(data.buffer, data.byteOffset, chunk.rowCount * 2);
  let slowValue: ((r: number) => unknown) | null = null;
  for (let r = 0; r < take; r++) {
    if (!isValid(validity, r)) {
      rows[r][column] = null;
      continue;
    }
    const high = halves[2 * r + 1];
    if (high > -SAFE_HIGH && high < SAFE_HIGH) rows[r][column] = to(high * 4_294_967_296 + (halves[2 * r] >>> 0));
    else {
      slowValue ??= valueAt(chunk, column, duckValue);
      rows[r][column] = slowValue(r);
    }
  }
}

/** A high half within ±2^21 makes the whole value a safe integer (within ±2^53). */
const SAFE_HIGH = 2 ** 21;

function days(chunk: DuckDBDataChunk, column: number, take: number, rows: unknown[][]): void {
  const { data, validity } = buffers(chunk, column, 4);
  if (data.byteOffset % 4 !== 0) return slowRead(duckValue)(chunk, column, take, rows);
  const items = new Int32Array(data.buffer, data.byteOffset, chunk.rowCount);
  let slowValue: ((r: number) => unknown) | null = null;
  for (let r = 0; r < take; r++) {
    if (!isValid(validity, r)) rows[r][column] = null;
    // Out of ISO's range (and ±infinity): the value's own text, as duckValue gives it.
    else rows[r][column] = isoFromEpochDays(items[r]) ?? (slowValue ??= valueAt(chunk, column, duckValue))(r);
  }
}

const READERS: Partial<Record<DuckDBTypeId, ColumnReader>> = {
  [DuckDBTypeId.BOOLEAN]: (ch, c, n, rows) => typed(ch, c, n, rows, Uint8Array, (v) => v !== 0),
  [DuckDBTypeId.TINYINT]: (ch, c, n, rows) => typed(ch, c, n, rows, Int8Array, same),
  [DuckDBTypeId.SMALLINT]: (ch, c, n, rows) => typed(ch, c, n, rows, Int16Array, same),
  [DuckDBTypeId.INTEGER]: (ch, c, n, rows) => typed(ch, c, n, rows, Int32Array, same),
  [DuckDBTypeId.UTINYINT]: (ch, c, n, rows) => typed(ch, c, n, rows, Uint8Array, same),
  [DuckDBTypeId.USMALLINT]: (ch, c, n, rows) => typed(ch, c, n, rows, Uint16Array, same),
  [DuckDBTypeId.UINTEGER]: (ch, c, n, rows) => typed(ch, c, n, rows, Uint32Array, same),
  [DuckDBTypeId.DOUBLE]: (ch, c, n, rows) => typed(ch, c, n, rows, Float64Array, finiteOrNull),
  [DuckDBTypeId.FLOAT]: (ch, c, n, rows) => typed(ch, c, n, rows, Float32Array, float32Number),
  [DuckDBTypeId.BIGINT]: (ch, c, n, rows) => int64(ch, c, n, rows, same),
  [DuckDBTypeId.TIMESTAMP]: (ch, c, n, rows) => int64(ch, c, n, rows, (v) => isoFromSafeMicros(v, false)),
  [DuckDBTypeId.TIMESTAMP_TZ]: (ch, c, n, rows) => int64(ch, c, n, rows, (v) => isoFromSafeMicros(v, true)),
  [DuckDBTypeId.DATE]: days,
};

function same(v: number): number {
  return v;
}

function slow(type: DuckDBType): ColumnReader {
  return slowRead(type.typeId === DuckDBTypeId.FLOAT ? duckFloat : duckValue);
}

function slowRead(convert: typeof duckValue): ColumnReader {
  return (chunk, column, take, rows) => {
    const at = valueAt(chunk, column, convert);
    for (let r = 0; r < take; r++) rows[r][column] = at(r);
  };
}

function valueAt(chunk: DuckDBDataChunk, column: number, convert: typeof duckValue): (r: number) => unknown {
  const vector = chunk.getColumnVector(column);
  return (r) => convert(vector.getItem(r));
}
