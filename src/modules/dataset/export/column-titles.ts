import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { columnSettingsOf } from './export-columns';

/**
 * Header names of an export: each column's `display_name`, unless `visualization_settings.column_settings` gives
 * it a `column_title`. Metabase keys those settings by `["name","TOTAL"]` or `["ref",["field",12,null]]` (JSON
 * text); a ref key matches the column's own field_ref, or a field ref with the same id or name (see export-columns.ts).
 */
export function columnTitles(
  cols: Pick<CompiledColumn, 'name' | 'display_name' | 'field_ref'>[],
  visualizationSettings: Record<string, unknown>,
): string[] {
  const settings = columnSettingsOf(cols, visualizationSettings);
  return cols.map((col, i) => {
    const title = settings[i].column_title;
    return typeof title === 'string' && title !== '' ? title : col.display_name;
  });
}
