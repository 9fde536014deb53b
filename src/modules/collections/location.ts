/**
 * Collection locations: `/` for a top-level collection, `/1/2/` for one inside 2 inside 1. Pure functions, so the
 * tree rules have one home and a spec of their own.
 */
export const ROOT_LOCATION = '/';

/** The location of the children of `c`. */
export function childLocation(c: { id: number; location: string }): string {
  return `${c.location}${c.id}/`;
}

/** The ancestors' ids, outermost first. */
export function ancestorIds(location: string): number[] {
  return location.split('/').filter(Boolean).map(Number);
}

/** The direct parent's id; null at the top. */
export function parentId(location: string): number | null {
  // The last id, without splitting the whole location (listings call this for every row).
  if (location.length < 2) return null;
  return parseInt(location.slice(location.lastIndexOf('/', location.length - 2) + 1), 10);
}

/** The id of the top-level collection `c` sits under (itself when at the top). */
export function topLevelId(c: { id: number; location: string }): number {
  // The first id of the location, without splitting it all (listings call this for every row).
  return c.location.length > 1 ? parseInt(c.location.slice(1), 10) : c.id;
}

/**
 * The half-open range of locations inside the subtree whose children live at `prefix`: every string that starts with
 * `prefix` (which ends in `/`) sorts at or after it and before `prefix` with its last `/` turned into `0`, the next
 * byte. Compared with byte order (the column's collation), this is one index range scan.
 */
export function subtreeRange(prefix: string): [string, string] {
  return [prefix, `${prefix.slice(0, -1)}0`];
}

/** True when `location` is inside the subtree whose children live at `prefix`. */
export function isWithin(location: string, prefix: string): boolean {
  return location.startsWith(prefix);
}
