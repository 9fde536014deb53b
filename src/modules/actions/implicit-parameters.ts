import type { ImplicitKind } from '../../schema/action.entity';
import { slugify } from './action-sql';
import type { ActionTable, TableColumn } from './actions.repository';

/** An action parameter as stored or derived: an id and the template tag (or column slug) it fills. */
export interface ActionParameter {
  id: string;
  target?: unknown;
  type?: string;
  [key: string]: unknown;
}

/** An implicit action's parameter with the table column it writes (or finds the row by). */
export interface ImplicitParameter {
  parameter: ActionParameter;
  col: TableColumn;
}

/** A result column as a card's `result_metadata` or a query's `cols` carry it. */
interface ResultColumn {
  id?: unknown;
  field_ref?: unknown;
  display_name?: unknown;
  unit?: unknown;
  binning_info?: unknown;
}

/** Neither readable by a model's viewers nor a column a form may write. */
const UNEXPOSED = new Set(['sensitive', 'retired']);
/** Field ref options that make a column something other than the table's own value (a join, an FK hop, a bucket). */
const DERIVED_REF = ['join-alias', 'source-field', 'temporal-unit', 'binning'];

/**
 * The table field a result column shows as it is: its `id`, unless the column comes through a join or an implicit
 * FK join (then the same id may be another row's value) or is bucketed or binned. Null otherwise.
 */
export function directFieldId(column: unknown): number | null {
  if (!column || typeof column !== 'object') return null;
  const c = column as ResultColumn;
  if (typeof c.id !== 'number' || c.unit || c.binning_info) return null;
  const ref = c.field_ref;
  if (!Array.isArray(ref)) return c.id;
  if (ref[0] !== 'field') return null;
  // Legacy refs carry their options third, MBQL 5 refs second.
  const opts = ref.slice(1).find((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x));
  return opts && DERIVED_REF.some((k) => opts[k] !== undefined && opts[k] !== null) ? null : c.id;
}

/**
 * The table's columns a model exposes: those its result columns show directly (by field id, as Metabase derives
 * implicit parameters from the model's `result_metadata`), never a sensitive or retired field, with the display name
 * the model gives them. None when two columns of the table share a slug (Metabase refuses such tables: a parameter
 * would not say which column it writes).
 */
export function exposedColumns(table: ActionTable, resultColumns: unknown): Array<{ col: TableColumn; displayName: string }> {
  const slugs = table.columns.map((c) => slugify(c.name));
  if (new Set(slugs).size !== slugs.length) return [];
  const shown = new Map<number, string | null>();
  for (const column of Array.isArray(resultColumns) ? resultColumns : []) {
    const id = directFieldId(column);
    const name = (column as ResultColumn).display_name;
    if (id !== null && !shown.has(id)) shown.set(id, typeof name === 'string' && name !== '' ? name : null);
  }
  return table.columns
    .filter((c) => shown.has(c.id) && !UNEXPOSED.has(c.visibility))
    .map((col) => ({ col, displayName: shown.get(col.id) ?? col.name }));
}

/**
 * The parameters of an implicit action of `kind` on the exposed columns: create takes every column, update every
 * column with the primary key required, delete the primary key alone. A stored parameter of the same id keeps its
 * extra keys (a form's own settings); the derived keys win.
 */
export function implicitParameters(
  kind: ImplicitKind | null,
  exposed: Array<{ col: TableColumn; displayName: string }>,
  stored: ActionParameter[],
): ImplicitParameter[] {
  const saved = new Map(stored.map((p) => [p.id, p]));
  return exposed
    .filter(({ col }) => kind === 'row/create' || kind === 'row/update' || col.pk)
    .map(({ col, displayName }) => {
      const id = slugify(col.name);
      return {
        col,
        parameter: {
          ...(saved.get(id) ?? {}),
          id,
          target: ['variable', ['template-tag', id]],
          type: col.base_type,
          'display-name': displayName,
          required: col.pk ? kind !== 'row/create' : col.required && kind === 'row/create',
          'is-auto-increment': col.pk && /int|serial/i.test(col.database_type),
        },
      };
    });
}

/** A form field's settings (`visualization_settings.fields`): hidden fields take no value from the viewer. */
interface FieldSetting {
  id?: unknown;
  hidden?: unknown;
  defaultValue?: unknown;
}

/**
 * What the form settings say of the parameters: which are hidden (a viewer may neither send nor see their value)
 * and the default values of those a request leaves out (as Metabase's execute-action! applies them).
 */
export function formSettings(visualizationSettings: string | null): { hidden: Set<string>; defaults: Map<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(visualizationSettings ?? '{}');
  } catch {
    parsed = {};
  }
  const fields = parsed && typeof parsed === 'object' ? (parsed as { fields?: unknown }).fields : undefined;
  const hidden = new Set<string>();
  const defaults = new Map<string, unknown>();
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return { hidden, defaults };
  for (const [key, raw] of Object.entries(fields as Record<string, unknown>)) {
    if (!raw || typeof raw !== 'object') continue;
    const s = raw as FieldSetting;
    const id = typeof s.id === 'string' ? s.id : key;
    if (s.hidden === true) hidden.add(id);
    if (s.defaultValue !== undefined && s.defaultValue !== null) defaults.set(id, s.defaultValue);
  }
  return { hidden, defaults };
}
