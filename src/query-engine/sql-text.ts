/**
 * Small text helpers for SQL that users wrote, as loops rather than regular expressions: a pattern such as
 * `/[\s;]+$/` retries from every position of a long run of spaces, which makes 100 kB of input take seconds.
 */

/** The SQL without trailing whitespace and `;`. */
export function trimTrailingSemicolons(sql: string): string {
  let end = sql.length;
  while (end > 0 && (sql[end - 1] === ';' || isSpace(sql[end - 1]))) end--;
  return sql.slice(0, end);
}

/** Whitespace as `\s` means it (one character). */
function isSpace(c: string): boolean {
  return /\s/.test(c);
}
