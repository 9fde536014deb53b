/**
 * The half-open range `[lo, hi)` of index terms that start with `prefix`, compared in byte order (SQLite's BINARY
 * collation, the "C" collation of the Postgres column). UTF-8 keeps code point order, so every term starting with
 * `prefix` sorts at or after it and before `prefix` with its last code point raised by one. Null `hi`: no upper
 * bound (a prefix of nothing but U+10FFFF).
 */
export function prefixRange(prefix: string): [string, string | null] {
  const cps = [...prefix].map((c) => c.codePointAt(0)!);
  while (cps.length > 0) {
    let last = cps.pop()! + 1;
    if (last >= 0xd800 && last <= 0xdfff) last = 0xe000; // no UTF-8 for surrogates
    if (last <= 0x10ffff) return [prefix, String.fromCodePoint(...cps, last)];
  }
  return [prefix, null];
}

/** `LIKE` text for a prefix, with its wildcards escaped (use with `ESCAPE '\'`). */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
