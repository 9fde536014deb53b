import type { XField } from './xray.types';

/** `where Category is Gizmo`: a cell's filter in words, for the x-ray's title (simple clauses only). */
export function describeFilter(clause: unknown[], fields: readonly XField[]): string {
  const parts = describe(clause, fields);
  return parts ? `where ${parts}` : 'with a filter';
}

function nameOf(ref: unknown, fields: readonly XField[]): string | null {
  if (!Array.isArray(ref) || ref[0] !== 'field') return null;
  const f = fields.find((x) => (typeof ref[1] === 'number' ? x.id === ref[1] : x.name === ref[1]));
  return f ? f.displayName : typeof ref[1] === 'string' ? ref[1] : null;
}

function describe(c: unknown[], fields: readonly XField[]): string | null {
  const [op, ...args] = c;
  if (op === 'and' || op === 'or') {
    const parts = args.map((a) => (Array.isArray(a) ? describe(a, fields) : null));
    return parts.every((p) => p !== null) ? parts.join(op === 'and' ? ' and ' : ' or ') : null;
  }
  const name = nameOf(args[0], fields);
  if (!name) return null;
  const vals = args.slice(1).map((v) => String(v));
  switch (op) {
    case '=':
      return `${name} is ${vals.join(' or ')}`;
    case '!=':
      return `${name} is not ${vals.join(' or ')}`;
    case '<':
      return `${name} is less than ${vals[0]}`;
    case '>':
      return `${name} is greater than ${vals[0]}`;
    case 'between':
      return `${name} is between ${vals[0]} and ${vals[1]}`;
    case 'is-null':
      return `${name} is empty`;
    case 'not-null':
      return `${name} is not empty`;
    default:
      return null;
  }
}
