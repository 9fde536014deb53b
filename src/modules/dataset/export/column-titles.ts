import type { CompiledColumn } from '../../../query-engine/compile/contract';

/**
 * Header names of an export: each column's `display_name`, unless `visualization_settings.column_settings` gives
 * it a `column_title`. Metabase keys those settings by `["name","TOTAL"]` or `["ref",["field",12,null]]` (JSON
 * text); a ref key matches the column's own field_ref, or a field ref with the same id or name. Other settings
 * (number formats, ...) are ignored.
 */
export function columnTitles(cols: Pick<CompiledColumn, 'name' | 'display_name' | 'field_ref'>[], visualizationSettings: Record<string, unknown>): string[] {
  const settings = visualizationSettings.column_settings;
  const entries: [unknown, string][] = [];
  if (settings && typeof settings === 'object' && !Array.isArray(settings)) {
    for (const [key, value] of Object.entries(settings)) {
      const title = (value as { column_title?: unknown } | null)?.column_title;
      if (typeof title !== 'string' || title === '') continue;
      try {
        entries.push([JSON.parse(key), title]);
      } catch {
        // A key that is not JSON names no column.
      }
    }
  }
  return cols.map((col) => entries.find(([key]) => matches(key, col))?.[1] ?? col.display_name);
}

function matches(key: unknown, col: Pick<CompiledColumn, 'name' | 'field_ref'>): boolean {
  if (!Array.isArray(key)) return false;
  if (key[0] === 'name') return key[1] === col.name;
  if (key[0] !== 'ref' || !Array.isArray(key[1])) return false;
  const ref = key[1] as unknown[];
  if (JSON.stringify(ref) === JSON.stringify(col.field_ref)) return true;
  const own = col.field_ref;
  return ref[0] === 'field' && own?.[0] === 'field' && ref[1] === own[1] && sameJoin(ref[2], own[2]);
}

/** Field refs differ in options (base-type, temporal-unit...); only the join alias tells two columns apart. */
function sameJoin(a: unknown, b: unknown): boolean {
  const alias = (o: unknown) => (o && typeof o === 'object' ? ((o as Record<string, unknown>)['join-alias'] ?? null) : null);
  return alias(a) === alias(b);
}
