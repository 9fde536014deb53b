/**
 * The type of each uploaded column, from every value in it. Each value is classified on its own; a column's type is
 * the narrowest one that holds all its values (empty values are nulls and fit any type).
 */
export type UploadType = 'int' | 'bigint' | 'float' | 'boolean' | 'date' | 'datetime' | 'offset-datetime' | 'text';

/** The name of the primary key added when no column of the file can be one (Metabase's name). */
export const ROW_ID = '_mb_row_id';

const INT = /^[-+]?\d{1,19}$/;
const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const BOOLEAN = /^(true|false|yes|no|t|f|y|n)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
const OFFSET_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/;
const INT32_MAX = 2_147_483_647n;
const INT64_MAX = 9_223_372_036_854_775_807n;
const TRUE = /^(true|yes|t|y)$/i;

/** One value's own type, null for an empty value. */
export function valueType(raw: string): UploadType | null {
  const v = raw.trim();
  if (v === '') return null;
  if (INT.test(v)) {
    const n = BigInt(v);
    const abs = n < 0n ? -n : n;
    if (abs <= INT32_MAX) return 'int';
    if (abs <= INT64_MAX) return 'bigint';
    return 'float';
  }
  if (FLOAT.test(v)) return Number.isFinite(Number(v)) ? 'float' : 'text';
  if (BOOLEAN.test(v)) return 'boolean';
  if (DATE.test(v)) return validDate(v) ? 'date' : 'text';
  if (DATETIME.test(v)) return validDate(v) ? 'datetime' : 'text';
  if (OFFSET_DATETIME.test(v)) return validDate(v) ? 'offset-datetime' : 'text';
  return 'text';
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether text[at, at + 10), `dddd-dd-dd` (checked by the caller), is a calendar date. Years 1–99 are not: they
 * were refused when this went through Date.UTC (which reads them as 1901–1999), and the detected types stay the same.
 */
function validDate(text: string, at = 0): boolean {
  const y = digits(text, at, 4);
  const m = digits(text, at + 5, 2);
  const d = digits(text, at + 8, 2);
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : DAYS[m - 1]);
}

function digits(text: string, at: number, n: number): number {
  let v = 0;
  for (let k = at; k < at + n; k++) v = v * 10 + text.charCodeAt(k) - 48;
  return v;
}

/**
 * The type of text[s, e) (not empty) when it has a common shape: a short whole number, a plain decimal, a date, a
 * datetime without offset, a boolean word. Answers exactly what valueType would, without making a string of the
 * value; undefined when unsure (then valueType decides).
 */
export function quickType(text: string, s: number, e: number): UploadType | undefined {
  let i = s;
  let c = text.charCodeAt(i);
  if (c === 45 || c === 43) c = text.charCodeAt(++i); // - +
  const digitsFrom = i;
  while (i < e && c >= 48 && c <= 57) c = text.charCodeAt(++i);
  const whole = i - digitsFrom;
  if (i === e) return whole > 0 && whole <= 9 ? 'int' : undefined;
  if (c === 46) {
    // . : a plain decimal (shorter than 300 characters, so surely finite)
    c = text.charCodeAt(++i);
    const fracFrom = i;
    while (i < e && c >= 48 && c <= 57) c = text.charCodeAt(++i);
    return i === e && whole + (i - fracFrom) > 0 && e - s < 300 ? 'float' : undefined;
  }
  if (whole === 4 && digitsFrom === s && c === 45) return quickDateType(text, s, e);
  if (whole === 0 && digitsFrom === s && e - s <= 5 && booleanWord(text, s, e - s)) return 'boolean';
  return undefined;
}

/** `dddd-dd-dd`, optionally followed by `[T ]dd:dd`, `:dd` and `.d{1,9}` (no offset): a date or a datetime. */
function quickDateType(text: string, s: number, e: number): UploadType | undefined {
  const len = e - s;
  if (
    len < 10 ||
    !digitAt(text, s + 5) ||
    !digitAt(text, s + 6) ||
    text.charCodeAt(s + 7) !== 45 ||
    !digitAt(text, s + 8) ||
    !digitAt(text, s + 9)
  )
    return undefined;
  if (len === 10) return validDate(text, s) ? 'date' : 'text';
  const sep = text.charCodeAt(s + 10);
  if (
    (sep !== 84 && sep !== 32) ||
    len < 16 ||
    !digitAt(text, s + 11) ||
    !digitAt(text, s + 12) ||
    text.charCodeAt(s + 13) !== 58 ||
    !digitAt(text, s + 14) ||
    !digitAt(text, s + 15)
  )
    return undefined;
  if (len > 16) {
    if (len < 19 || text.charCodeAt(s + 16) !== 58 || !digitAt(text, s + 17) || !digitAt(text, s + 18)) return undefined;
    if (len > 19) {
      if (text.charCodeAt(s + 19) !== 46 || len < 21 || len > 29) return undefined;
      for (let k = s + 20; k < e; k++) if (!digitAt(text, k)) return undefined;
    }
  }
  return validDate(text, s) ? 'datetime' : 'text';
}

function digitAt(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  return c >= 48 && c <= 57;
}

/** true false yes no t f y n, in any case. */
function booleanWord(text: string, s: number, len: number): boolean {
  const lower = (k: number) => text.charCodeAt(s + k) | 32;
  switch (len) {
    case 1: {
      const c = lower(0);
      return c === 116 || c === 102 || c === 121 || c === 110;
    }
    case 2:
      return lower(0) === 110 && lower(1) === 111;
    case 3:
      return lower(0) === 121 && lower(1) === 101 && lower(2) === 115;
    case 4:
      return lower(0) === 116 && lower(1) === 114 && lower(2) === 117 && lower(3) === 101;
    case 5:
      return lower(0) === 102 && lower(1) === 97 && lower(2) === 108 && lower(3) === 115 && lower(4) === 101;
    default:
      return false;
  }
}

/** Key values below this are kept in a bitmap (at most 8 MiB). */
const MAX_ID_BITS = 1 << 26;

/** text[s, e) as a number when it is a plainly written whole number: 0, or an optional - and 1–15 digits without a leading zero. */
function plainWhole(text: string, s: number, e: number): number | undefined {
  const negative = text.charCodeAt(s) === 45;
  const from = negative ? s + 1 : s;
  const len = e - from;
  if (len < 1 || len > 15) return undefined;
  const first = text.charCodeAt(from);
  if (first === 48) return len === 1 && !negative ? 0 : undefined;
  let v = 0;
  for (let k = from; k < e; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) return undefined;
    v = v * 10 + c - 48;
  }
  return negative ? -v : v;
}

const SMALL_INT = /^-?\d{1,9}$/;
const MID_INT = /^-?\d{1,18}$/;

/** Whether a value (untrimmed) surely has type `t` or a narrower one: a cheap test before classifying it. */
function fits(t: UploadType, v: string): boolean {
  switch (t) {
    case 'int':
      return SMALL_INT.test(v);
    case 'bigint':
      return MID_INT.test(v);
    case 'float':
      return FLOAT.test(v) && v.length < 300;
    case 'boolean':
      return BOOLEAN.test(v);
    case 'date':
      return DATE.test(v) && validDate(v);
    case 'datetime':
      return (DATETIME.test(v) || DATE.test(v)) && validDate(v);
    case 'offset-datetime':
      return OFFSET_DATETIME.test(v) && validDate(v);
    default:
      return true;
  }
}

const NUMERIC: UploadType[] = ['int', 'bigint', 'float'];

/** The narrowest type holding values of both types (null: no value seen yet). */
export function widen(a: UploadType | null, b: UploadType | null): UploadType | null {
  if (a === null) return b;
  if (b === null || a === b) return a;
  if (NUMERIC.includes(a) && NUMERIC.includes(b)) return NUMERIC[Math.max(NUMERIC.indexOf(a), NUMERIC.indexOf(b))];
  if ((a === 'date' && b === 'datetime') || (a === 'datetime' && b === 'date')) return 'datetime';
  return 'text';
}

/** The value as the loaders send it: null for empty, booleans as true/false, the rest trimmed text. */
export function normalizeValue(raw: string, type: UploadType): string | null {
  const v = raw.trim();
  if (v === '') return null;
  if (type === 'boolean') return TRUE.test(v) ? 'true' : 'false';
  if (type === 'text') return raw;
  return v;
}

/**
 * Follows the values of each column through a file: their types, and whether a column named `id` holds unique
 * whole numbers in every row (then it is the primary key; otherwise one is generated).
 */
export class TypeTracker {
  readonly types: Array<UploadType | null>;
  private readonly idColumn: number;
  /**
   * The `id` values seen, null once one is empty or repeated. Whole numbers written plainly (no sign but -, no
   * leading zero, up to 15 digits) are kept as numbers, which is cheaper: such a text and its number determine each
   * other, and no other text equals one of them, so a repeat is found just as among the texts. Small non-negative
   * ones (the usual 1, 2, 3...) are bits of a bitmap, cheaper still.
   */
  private idValues: { bits: Uint8Array; numbers: Set<number>; texts: Set<string>; count: number } | null;
  /** Whether some value of a typed column had spaces around it (or was blank): the file cannot go to the database as it is. */
  untidy = false;

  constructor(readonly names: string[]) {
    this.types = names.map(() => null);
    this.idColumn = names.findIndex((n) => n === 'id');
    this.idValues = this.idColumn >= 0 ? { bits: new Uint8Array(1024), numbers: new Set(), texts: new Set(), count: 0 } : null;
  }

  add(row: string[]): void {
    for (let i = 0; i < this.types.length; i++) {
      const t = this.types[i];
      if (t !== 'text') this.addValue(i, t, row[i]);
    }
    if (this.idValues) this.addId(row[this.idColumn] ?? '');
  }

  /** Like add, for a record as positions in the text (see CsvSplitter.visit): most values are typed in place. */
  visit(text: string, count: number, starts: Int32Array, ends: Int32Array, quoted: Array<string | undefined>): void {
    const n = Math.min(count, this.types.length);
    for (let i = 0; i < n; i++) {
      const t = this.types[i];
      if (t === 'text') continue;
      const q = quoted[i];
      if (q !== undefined) {
        this.addValue(i, t, q);
        continue;
      }
      const s = starts[i];
      const e = ends[i];
      if (s === e) continue;
      const vt = quickType(text, s, e);
      if (vt === undefined) this.addValue(i, t, text.slice(s, e));
      else if (vt !== t) this.types[i] = widen(t, vt);
    }
    if (this.idValues) {
      const k = this.idColumn;
      const n = k < count && quoted[k] === undefined ? plainWhole(text, starts[k], ends[k]) : undefined;
      if (n !== undefined) this.addIdNumber(n);
      else this.addId(k >= count ? '' : (quoted[k] ?? text.slice(starts[k], ends[k])));
    }
  }

  private addValue(i: number, t: UploadType | null, raw: string | undefined): void {
    if (raw === undefined || raw === '') return;
    // The common case, a value of the column's type, is checked first without classifying it afresh.
    if (t !== null && fits(t, raw)) return;
    const vt = valueType(raw);
    if (vt !== 'text' && raw.trim() !== raw) this.untidy = true;
    if (vt !== t) this.types[i] = widen(t, vt);
  }

  private addId(raw: string): void {
    const v = raw.trim();
    if (!this.idValues) return;
    const n = plainWhole(v, 0, v.length);
    if (n !== undefined) return this.addIdNumber(n);
    if (v === '' || this.idValues.texts.has(v)) this.idValues = null;
    else {
      this.idValues.texts.add(v);
      this.idValues.count++;
    }
  }

  private addIdNumber(n: number): void {
    const ids = this.idValues;
    if (!ids) return;
    ids.count++;
    if (n >= 0 && n < MAX_ID_BITS) {
      const byte = n >>> 3;
      if (byte >= ids.bits.length) {
        const bits = new Uint8Array(Math.min(MAX_ID_BITS >>> 3, Math.max(byte + 1, ids.bits.length * 2)));
        bits.set(ids.bits);
        ids.bits = bits;
      }
      const mask = 1 << (n & 7);
      if (ids.bits[byte] & mask) this.idValues = null;
      else ids.bits[byte] |= mask;
      return;
    }
    if (ids.numbers.has(n)) this.idValues = null;
    else ids.numbers.add(n);
  }

  /** Final types (a column with no value at all is text), and the primary key: an `id` column or a generated one. */
  result(): { types: UploadType[]; pk: string | null } {
    const types = this.types.map((t) => t ?? 'text');
    const idType = this.idColumn >= 0 ? types[this.idColumn] : null;
    const idIsKey = this.idValues !== null && this.idValues.count > 0 && (idType === 'int' || idType === 'bigint');
    return { types, pk: idIsKey ? 'id' : null };
  }
}
