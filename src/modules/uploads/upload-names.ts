/**
 * Names of uploaded tables and columns. Nothing the user sent reaches SQL unchanged: every name is reduced to
 * [a-z0-9_] (and then still quoted by the dialect), so file names and headers can neither inject SQL nor a path.
 */
import { randomBytes } from 'node:crypto';

const MAX_IDENTIFIER = 63;

export function sanitizeName(raw: string, fallback: string): string {
  const s = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (s || fallback).slice(0, MAX_IDENTIFIER);
}

/**
 * Column names from the header: sanitized, made unique with a suffix (`a`, `a_2`, `a_3`...), and never the generated
 * key's name. Each base name remembers the next suffix to try, so a header repeating one name n times takes n steps,
 * not n²/2 (counting from 2 for each repeat took 42 s for 25,000 repeats, the event loop blocked meanwhile).
 */
export function columnNames(header: string[], reserved: string): string[] {
  const seen = new Set<string>([reserved]);
  const nextSuffix = new Map<string, number>();
  return header.map((h, i) => {
    const base = sanitizeName(h, `unnamed_column_${i + 1}`).slice(0, MAX_IDENTIFIER - 4);
    let name = base;
    let n = nextSuffix.get(base) ?? 2;
    // A long base keeps room for `_999`; a longer suffix cuts the base further (identifiers stop at 63 characters).
    while (seen.has(name)) name = suffixed(base, n++);
    nextSuffix.set(base, n);
    seen.add(name);
    return name;
  });
}

function suffixed(base: string, n: number): string {
  const suffix = `_${n}`;
  return base.slice(0, MAX_IDENTIFIER - suffix.length) + suffix;
}

/**
 * `<prefix><file name>_<yyyymmddhhmmss>_<4 hex>`: the file's name without its extension; the time and a random
 * suffix keep apart two uploads of one file name (within one second, too).
 */
export function tableName(prefix: string | null, fileName: string, now: Date, suffix = randomBytes(2).toString('hex')): string {
  const stamp = `${now.toISOString().replace(/[-:T]/g, '').slice(0, 14)}_${suffix}`;
  const p = prefix
    ? prefix
        .toLowerCase()
        .replace(/[^a-z0-9_]+/g, '_')
        .slice(0, 20)
    : '';
  const base = sanitizeName(fileName.replace(/\.[^.]*$/, ''), 'upload').slice(0, MAX_IDENTIFIER - p.length - stamp.length - 1);
  return `${p}${base}_${stamp}`;
}

/** A display name for the model: the file name without extension, underscores and dashes as spaces. */
export function modelName(fileName: string): string {
  const s = fileName
    .replace(/\.[^.]*$/, '')
    .replace(/[_-]+/g, ' ')
    .trim()
    .slice(0, 254);
  return s ? s[0].toUpperCase() + s.slice(1) : 'Upload';
}
