import type { ActionTable, TableColumn } from './actions.repository';
import { directFieldId, exposedColumns, formSettings, implicitParameters } from './implicit-parameters';

const col = (id: number, name: string, extra: Partial<TableColumn> = {}): TableColumn => ({
  id,
  name,
  base_type: 'type/Text',
  database_type: 'text',
  pk: false,
  required: false,
  position: id,
  visibility: 'normal',
  ...extra,
});
const PEOPLE: ActionTable = {
  id: 1,
  db_id: 1,
  schema: null,
  name: 'PEOPLE',
  columns: [
    col(10, 'ID', { pk: true, base_type: 'type/Integer', database_type: 'INTEGER', required: true }),
    col(11, 'NAME'),
    col(12, 'EMAIL'),
    col(13, 'PASSWORD', { visibility: 'sensitive' }),
    col(14, 'OLD', { visibility: 'retired' }),
  ],
};
const shown = (id: number, opts: Record<string, unknown> | null = null, extra: Record<string, unknown> = {}) => ({
  id,
  display_name: `Col ${id}`,
  field_ref: ['field', id, opts],
  ...extra,
});

describe('implicit action parameters', () => {
  it("keeps only the table's columns the model's result shows as they are", () => {
    expect(directFieldId(shown(11))).toBe(11);
    expect(directFieldId({ id: 11, field_ref: ['field', { 'base-type': 'type/Text' }, 11] })).toBe(11);
    // Through a join, an FK hop, a temporal bucket or a bin, the same field id is not this row's value.
    expect(directFieldId(shown(11, { 'join-alias': 'P2' }))).toBeNull();
    expect(directFieldId(shown(11, { 'source-field': 3 }))).toBeNull();
    expect(directFieldId(shown(11, null, { unit: 'month' }))).toBeNull();
    expect(directFieldId({ name: 'count', field_ref: ['aggregation', 0] })).toBeNull();
    expect(directFieldId({ id: 11, field_ref: ['expression', 'x'] })).toBeNull();
  });

  it('never exposes a sensitive or retired field, and nothing of a table whose column names clash', () => {
    const exposed = exposedColumns(PEOPLE, [shown(10), shown(11), shown(13), shown(14), shown(12, { 'join-alias': 'P2' })]);
    expect(exposed.map(({ col, displayName }) => [col.name, displayName])).toEqual([
      ['ID', 'Col 10'],
      ['NAME', 'Col 11'],
    ]);
    expect(exposedColumns(PEOPLE, null)).toEqual([]);
    const clash: ActionTable = { ...PEOPLE, columns: [...PEOPLE.columns, col(15, 'name')] };
    expect(exposedColumns(clash, [shown(10), shown(11)])).toEqual([]);
  });

  it('gives each kind its parameters: create all, update all with a required key, delete the key', () => {
    const exposed = exposedColumns(PEOPLE, [shown(10), shown(11)]);
    expect(implicitParameters('row/create', exposed, []).map((p) => [p.parameter.id, p.parameter.required])).toEqual([
      ['id', false],
      ['name', false],
    ]);
    expect(implicitParameters('row/update', exposed, []).map((p) => [p.parameter.id, p.parameter.required])).toEqual([
      ['id', true],
      ['name', false],
    ]);
    expect(implicitParameters('row/delete', exposed, []).map((p) => p.parameter.id)).toEqual(['id']);
    // A stored parameter keeps its own keys; the derived ones win.
    const [, name] = implicitParameters('row/update', exposed, [{ id: 'name', placeholder: 'Who?', type: 'number' }]);
    expect(name.parameter).toMatchObject({ id: 'name', placeholder: 'Who?', type: 'type/Text', 'display-name': 'Col 11' });
  });

  it("reads hidden fields and defaults from the form's settings", () => {
    const s = formSettings(
      JSON.stringify({ fields: { a: { id: 'a', hidden: true }, b: { id: 'b', defaultValue: 3 }, c: { hidden: 'yes' } } }),
    );
    expect([...s.hidden]).toEqual(['a']);
    expect([...s.defaults]).toEqual([['b', 3]]);
    expect(formSettings('nope')).toEqual({ hidden: new Set(), defaults: new Map() });
    expect(formSettings(null)).toEqual({ hidden: new Set(), defaults: new Map() });
  });
});
