import type { Filter } from '../mbql/types';
import { PreprocessError } from './context';
import type { RowCondition, TableRestriction } from './row-policy-types';

export type { NativeQuestion, QuestionPart, RowCondition, RowFilter, RowPolicies, TableRestriction, TagBinding } from './row-policy-types';

const INTEGER_TYPES = new Set(['type/Integer', 'type/BigInteger']);
const DECIMAL_TYPES = new Set(['type/Float', 'type/Decimal', 'type/Number']);

/**
 * The values an attribute allows for a column: a list (JSON array) holds several. A string attribute on a numeric
 * column is parsed; one that does not parse is an error rather than a filter that silently matches nothing.
 */
export function attributeValues(c: RowCondition): Array<string | number | boolean> {
  if (c.value === undefined || c.value === null) throw new PreprocessError(`Query requires user attribute \`${c.attribute}\``);
  const raw = Array.isArray(c.value) ? c.value : [c.value];
  return raw.map((v) => valueFor(c, v));
}

function valueFor(c: RowCondition, v: unknown): string | number | boolean {
  const integer = INTEGER_TYPES.has(c.baseType);
  if (integer || DECIMAL_TYPES.has(c.baseType)) {
    const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    const ok = integer ? /^[-+]?\d+$/.test(text) : /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text);
    const kind = integer ? 'an integer' : 'a number';
    if (!ok || !Number.isFinite(Number(text)))
      throw new PreprocessError(`User attribute \`${c.attribute}\` (${JSON.stringify(v)}) is not ${kind}, as column ${c.column} needs.`);
    return Number(text);
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return typeof v === 'boolean' ? v : String(v);
  throw new PreprocessError(`User attribute \`${c.attribute}\` holds a value that cannot be compared with column ${c.column}.`);
}

/**
 * The filter a restricted table's rows must pass, its column refs made by `ref` (plain for a level's source
 * table, with the join alias for a joined one).
 */
export function restrictionFilter(r: TableRestriction, ref: (fieldId: number) => unknown[]): Filter | null {
  if (r.refusal) throw new PreprocessError(r.refusal);
  // Never an open table by mistake: a restriction always says what lets rows through.
  if (r.filters.length === 0) throw new PreprocessError(`Table ${r.tableId} is restricted by a policy with nothing to apply.`);
  const policies = r.filters.map((f) => {
    const parts = f.conditions.map((c) => {
      const values = attributeValues(c);
      const field = ref(c.fieldId);
      return values.length ? ['=', field, ...values] : ['and', ['is-null', field], ['not-null', field]];
    });
    return parts.length === 0 ? null : parts.length === 1 ? parts[0] : ['and', ...parts];
  });
  // A policy without conditions shows every row: the table is not restricted by the others (OR).
  if (policies.some((p) => p === null)) return null;
  return (policies.length === 1 ? policies[0] : ['or', ...policies]) as Filter;
}
