/**
 * A timestamp read by plain SQL as ISO 8601: Postgres answers a Date; SQLite answers the ORM's UTC text
 * (`2026-01-02 03:04:05.678`), which `new Date` would read as local time.
 */
export function sqlTime(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`).toISOString();
}

/** A timestamp read by raw SQL: a Date on Postgres, UTC text without a zone on SQLite. */
export function isoTime(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  if (d instanceof Date) return d.toISOString();
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(d) ? d : `${d.replace(' ', 'T')}Z`;
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? d : parsed.toISOString();
}
