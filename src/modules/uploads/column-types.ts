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
  if (DATETIME.test(v)) return validDate(v.slice(0, 10)) ? 'datetime' : 'text';
  if (OFFSET_DATETIME.test(v)) return validDate(v.slice(0, 10)) ? 'offset-datetime' : 'text';
  return 'text';
}

function validDate(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
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
      return (DATETIME.test(v) || DATE.test(v)) && validDate(v.slice(0, 10));
    case 'offset-datetime':
      return OFFSET_DATETIME.test(v) && validDate(v.slice(0, 10));
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
  private idValues: Set<string> | null;
  /** Whether some value of a typed column had spaces around it (or was blank): the file cannot go to the database as it is. */
  untidy = false;

  constructor(readonly names: string[]) {
    this.types = names.map(() => null);
    this.idColumn = names.findIndex((n) => n === 'id');
    this.idValues = this.idColumn >= 0 ? new Set() : null;
  }

  add(row: string[]): void {
    for (let i = 0; i < this.types.length; i++) {
      const t = this.types[i];
      if (t === 'text') continue;
      const raw = row[i];
      if (raw === undefined || raw === '') continue;
      // The common case, a value of the column's type, is checked first without classifying it afresh.
      if (t !== null && fits(t, raw)) continue;
      const vt = valueType(raw);
      if (vt !== 'text' && raw.trim() !== raw) this.untidy = true;
      if (vt !== t) this.types[i] = widen(t, vt);
    }
    if (this.idValues) {
      const v = (row[this.idColumn] ?? '').trim();
      if (v === '' || this.idValues.has(v)) this.idValues = null;
      else this.idValues.add(v);
    }
  }

  /** Final types (a column with no value at all is text), and the primary key: an `id` column or a generated one. */
  result(): { types: UploadType[]; pk: string | null } {
    const types = this.types.map((t) => t ?? 'text');
    const idType = this.idColumn >= 0 ? types[this.idColumn] : null;
    const idIsKey = this.idValues !== null && this.idValues.size > 0 && (idType === 'int' || idType === 'bigint');
    return { types, pk: idIsKey ? 'id' : null };
  }
}
