import { createHash } from 'node:crypto';

/**
 * Where a persisted model lives in its warehouse: one schema per database that the server owns
 * (`analytics_cache_<8 hex of the site id>_<database id>`, so that several servers or several databases on one MySQL
 * server never share it), and one table per model (`model_<card id>`). A rebuild goes into `model_<card id>_new` and
 * is swapped in once complete. Every name is ASCII letters, digits and `_`: safe in every dialect, still quoted.
 */
export function cacheSchemaName(siteId: string, databaseId: number): string {
  const hash = createHash('sha256').update(siteId).digest('hex').slice(0, 8);
  return `analytics_cache_${hash}_${databaseId}`;
}

export function modelTableName(cardId: number): string {
  return `model_${cardId}`;
}

export function buildingTableName(cardId: number): string {
  return `model_${cardId}_new`;
}

export function oldTableName(cardId: number): string {
  return `model_${cardId}_old`;
}

/**
 * The persisted table's column names: the result's own names, made unique (a repeated name gets `_2`, `_3`...),
 * since the outer queries refer to the model's columns by these names.
 */
export function uniqueColumnNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw) => {
    const base = raw === '' ? 'column' : raw;
    let name = base;
    for (let i = 2; seen.has(name.toLowerCase()); i++) name = `${base}_${i}`;
    seen.add(name.toLowerCase());
    return name;
  });
}
