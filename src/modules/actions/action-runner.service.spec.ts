import { MessageError } from '../../common/errors/api-errors';
import type { SecretBox } from '../../common/crypto/secret-box';
import type { WarehouseConnections } from '../warehouse/warehouse-connections';
import { ActionRunner } from './action-runner.service';
import { runWrite } from './action-writer';
import type { ActionDatabase, ActionModel, ActionRow, ActionTable, ActionsRepository } from './actions.repository';

jest.mock('./action-writer', () => ({ runWrite: jest.fn(), WriteFailedError: class extends Error {} }));

const written = runWrite as jest.MockedFunction<typeof runWrite>;

const TABLE: ActionTable = {
  id: 5,
  db_id: 1,
  schema: 'public',
  name: 'we"ird',
  columns: [
    { id: 1, name: 'Id', base_type: 'type/Integer', database_type: 'int4', pk: true, required: true, position: 0, visibility: 'normal' },
    {
      id: 2,
      name: 'full name',
      base_type: 'type/Text',
      database_type: 'text',
      pk: false,
      required: true,
      position: 1,
      visibility: 'normal',
    },
    { id: 3, name: 'qty', base_type: 'type/Integer', database_type: 'int4', pk: false, required: false, position: 2, visibility: 'normal' },
    { id: 4, name: 'secret', base_type: 'type/Text', database_type: 'text', pk: false, required: false, position: 3, visibility: 'normal' },
  ],
};
/** The model shows every column but `secret`. */
const MODEL: ActionModel = {
  id: 3,
  table_id: 5,
  dataset_query: '{}',
  result_metadata: JSON.stringify([1, 2, 3].map((id) => ({ id, name: `c${id}`, field_ref: ['field', id, null] }))),
};
const DB: ActionDatabase = { id: 1, name: 'Shop', engine: 'postgres', details: {}, settings: { 'database-enable-actions': true } };

const action = (extra: Partial<ActionRow>): ActionRow =>
  ({
    id: 9,
    model_id: 3,
    type: 'implicit',
    kind: 'row/update',
    name: 'a',
    parameters: '[]',
    database_id: null,
    dataset_query: null,
    archived: false,
    ...extra,
  }) as ActionRow;

/** ActionRunner with its repository and the writer mocked: the statements it builds, and what it refuses before writing. */
describe('ActionRunner', () => {
  let runner: ActionRunner;
  let repo: jest.Mocked<Pick<ActionsRepository, 'model' | 'table' | 'database'>>;

  beforeEach(() => {
    written.mockReset();
    repo = {
      model: jest.fn().mockResolvedValue(MODEL),
      table: jest.fn().mockResolvedValue(TABLE),
      database: jest.fn().mockResolvedValue(DB),
    };
    const connections = { validate: jest.fn((_e, d) => d) } as unknown as WarehouseConnections;
    runner = new ActionRunner(repo as unknown as ActionsRepository, connections, { open: (x: unknown) => x } as unknown as SecretBox);
  });

  it('builds an update by primary key with quoted identifiers and every value bound', async () => {
    written.mockResolvedValue([{ rows: [], changes: 1 }]);
    expect(await runner.execute(action({}), { id: '7', full_name: "O'Brien", qty: '3' })).toEqual({ 'rows-updated': [1] });
    expect(written).toHaveBeenCalledWith('postgres', expect.anything(), [
      { sql: 'UPDATE "public"."we""ird" SET "full name" = ?, "qty" = ? WHERE "Id" = ?', params: ["O'Brien", 3, 7] },
    ]);
  });

  it('builds an insert returning the created row, and a delete by primary key', async () => {
    written.mockResolvedValue([{ rows: [{ Id: 1, 'full name': 'x', qty: null }], changes: 1 }]);
    expect(await runner.execute(action({ kind: 'row/create' }), { full_name: 'x' })).toEqual({
      'created-row': { Id: 1, 'full name': 'x', qty: null },
    });
    expect(written.mock.calls[0][2]).toEqual([
      { sql: 'INSERT INTO "public"."we""ird" ("full name") VALUES (?) RETURNING *', params: ['x'] },
    ]);
    written.mockResolvedValue([{ rows: [], changes: 1 }]);
    expect(await runner.execute(action({ kind: 'row/delete' }), { id: 1 })).toEqual({ 'rows-deleted': [1] });
    expect(written.mock.calls[1][2]).toEqual([{ sql: 'DELETE FROM "public"."we""ird" WHERE "Id" = ?', params: [1] }]);
  });

  it('refuses before writing: no primary key value, unknown parameters, actions off, an engine without actions', async () => {
    await expect(runner.execute(action({}), { qty: 1 })).rejects.toThrow('Missing primary key parameter: "id"');
    await expect(runner.execute(action({ kind: 'row/delete' }), { id: 1, qty: 2 })).rejects.toThrow(
      'No destination parameter found for #{"qty"}. Found: #{"id"}',
    );
    repo.database.mockResolvedValueOnce({ ...DB, settings: {} });
    await expect(runner.execute(action({}), { id: 1 })).rejects.toThrow(new MessageError('Actions are not enabled.'));
    repo.database.mockResolvedValueOnce({ ...DB, engine: 'duckdb' });
    await expect(runner.execute(action({}), { id: 1 })).rejects.toThrow('duckdb Database 1 "Shop" does not support actions.');
    expect(written).not.toHaveBeenCalled();
  });

  it("runs a query action's SQL with its tags bound through the action's parameters", async () => {
    written.mockResolvedValue([{ rows: [], changes: 2 }]);
    const q = action({
      type: 'query',
      kind: null,
      database_id: 1,
      parameters: JSON.stringify([{ id: 'p1', target: ['variable', ['template-tag', 'n']] }]),
      dataset_query: JSON.stringify({
        type: 'native',
        native: { query: 'UPDATE t SET qty = qty + {{n}}', 'template-tags': { n: { name: 'n', type: 'number' } } },
      }),
    });
    expect(await runner.execute(q, { p1: '4' })).toEqual({ 'rows-affected': 2 });
    expect(written.mock.calls[0][2]).toEqual([{ sql: 'UPDATE t SET qty = qty + ?', params: [4] }]);
  });

  it('declares and writes only the columns the model shows; a value for another column is refused before writing', async () => {
    expect((await runner.parameters(action({}))).map((p) => p.id)).toEqual(['id', 'full_name', 'qty']);
    await expect(runner.execute(action({}), { id: 1, secret: 'x' })).rejects.toThrow(
      'No destination parameter found for #{"secret"}. Found: #{"id" "full_name" "qty"}',
    );
    repo.table.mockResolvedValue({ ...TABLE, columns: TABLE.columns.map((c) => (c.id === 3 ? { ...c, visibility: 'sensitive' } : c)) });
    expect((await runner.parameters(action({}))).map((p) => p.id)).toEqual(['id', 'full_name']);
    await expect(runner.execute(action({}), { id: 1, qty: 2 })).rejects.toThrow('No destination parameter found for #{"qty"}');
    expect(written).not.toHaveBeenCalled();
  });

  it("refuses a value for a hidden form field and writes the field's default instead", async () => {
    written.mockResolvedValue([{ rows: [], changes: 1 }]);
    const hidden = action({ visualization_settings: JSON.stringify({ fields: { qty: { id: 'qty', hidden: true, defaultValue: 0 } } }) });
    await expect(runner.execute(hidden, { id: 1, qty: 5 })).rejects.toThrow(
      'No destination parameter found for #{"qty"}. Found: #{"id" "full_name"}',
    );
    expect(written).not.toHaveBeenCalled();
    await runner.execute(hidden, { id: 1, full_name: 'x' });
    expect(written.mock.calls[0][2]).toEqual([
      { sql: 'UPDATE "public"."we""ird" SET "full name" = ?, "qty" = ? WHERE "Id" = ?', params: ['x', 0, 1] },
    ]);
  });
});
