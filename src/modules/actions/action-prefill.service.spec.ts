import type { SharedGrant } from '../../common/auth/shared-grant';
import type { SecretBox } from '../../common/crypto/secret-box';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { DatasetService } from '../dataset';
import type { WarehouseConnections } from '../warehouse';
import { ActionPrefill, PRIMARY_KEY_ACTIONS_ONLY } from './action-prefill.service';
import { ActionRunner } from './action-runner.service';
import type { ActionDatabase, ActionModel, ActionRow, ActionTable, ActionsRepository } from './actions.repository';

/**
 * ActionPrefill: an update form starts from the row as the model's query shows it, for whoever asks. The real runner
 * works out the action's parameters over a mocked repository; the dataset run is mocked.
 */
describe('ActionPrefill', () => {
  const TABLE: ActionTable = {
    id: 5,
    db_id: 1,
    schema: 'public',
    name: 'people',
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
      {
        id: 3,
        name: 'qty',
        base_type: 'type/Integer',
        database_type: 'int4',
        pk: false,
        required: false,
        position: 2,
        visibility: 'normal',
      },
      {
        id: 4,
        name: 'secret',
        base_type: 'type/Text',
        database_type: 'text',
        pk: false,
        required: false,
        position: 3,
        visibility: 'normal',
      },
    ],
  };
  const MODEL: ActionModel = {
    id: 3,
    table_id: 5,
    dataset_query: JSON.stringify({ database: 1, type: 'query', query: { 'source-table': 5 } }),
    result_metadata: JSON.stringify([1, 2, 3].map((id) => ({ id, name: `c${id}`, field_ref: ['field', id, null] }))),
  };
  const DB: ActionDatabase = { id: 1, name: 'Shop', engine: 'postgres', details: {}, settings: { 'database-enable-actions': true } };
  const action = (over: Partial<ActionRow> = {}) =>
    ({ id: 9, model_id: 3, type: 'implicit', kind: 'row/update', parameters: '[]', visualization_settings: '{}', ...over }) as ActionRow;
  const who: SharedGrant = { shared: { via: 'public', model: 'dashboard', id: 4 } };
  const col = (id: number, extra: Record<string, unknown> = {}) => ({ id, name: `c${id}`, field_ref: ['field', id, null], ...extra });

  function setup(result: unknown) {
    const repo = {
      model: jest.fn().mockResolvedValue(MODEL),
      table: jest.fn().mockResolvedValue(TABLE),
      database: jest.fn().mockResolvedValue(DB),
    };
    const runner = new ActionRunner(repo as unknown as ActionsRepository, {} as WarehouseConnections, {} as SecretBox);
    const dataset = { run: jest.fn().mockResolvedValue(result) };
    return { prefill: new ActionPrefill(repo as unknown as ActionsRepository, runner, dataset as unknown as DatasetService), dataset };
  }
  const completed = (cols: unknown[], rows: unknown[][]) => ({ status: 'completed', data: { cols, rows } });

  it("reads the row through the model's query narrowed to the key, for whoever asks, and answers the form's parameters", async () => {
    const m = setup(
      completed([col(1), col(2), col(3), col(2, { field_ref: ['field', 2, { 'temporal-unit': 'day' }] })], [[12, 'Ann', 4, 'x']]),
    );
    await expect(m.prefill.values(action(), { id: 12 }, who)).resolves.toEqual({ id: 12, full_name: 'Ann', qty: 4 });
    const [query, runFor, , opts] = m.dataset.run.mock.calls[0];
    expect(query.parameters).toEqual([{ type: 'id', target: ['dimension', ['field', 1, null]], value: [12] }]);
    expect(runFor).toBe(who);
    expect(opts).toEqual({ context: 'action', cardId: 3, defaultMaxRows: 1 });
  });

  it('leaves out what the form hides', async () => {
    const hidden = JSON.stringify({ fields: { qty: { id: 'qty', hidden: true } } });
    const m = setup(completed([col(1), col(2), col(3)], [[12, 'Ann', 4]]));
    await expect(m.prefill.values(action({ visualization_settings: hidden }), { id: 12 }, who)).resolves.toEqual({
      id: 12,
      full_name: 'Ann',
    });
  });

  it('prefills nothing for query actions and refuses create actions; a row the model does not show is a 404', async () => {
    const m = setup(completed([col(1)], []));
    await expect(m.prefill.values(action({ type: 'query' }), {}, who)).resolves.toEqual({});
    const e = await m.prefill.values(action({ kind: 'row/create' }), {}, who).catch((x: unknown) => x);
    expect((e as MessageError).message).toBe(PRIMARY_KEY_ACTIONS_ONLY);
    await expect(m.prefill.values(action(), { id: 99 }, who)).rejects.toBeInstanceOf(NotFoundError);
    const failed = setup({ status: 'failed', error: 'permission denied' });
    expect(((await failed.prefill.values(action(), { id: 12 }, who).catch((x: unknown) => x)) as MessageError).message).toBe(
      'permission denied',
    );
    // A value for a parameter the action does not have is refused before anything runs.
    const stray = setup(completed([col(1)], [[12]]));
    await expect(stray.prefill.values(action(), { id: 12, secret: 'x' }, who)).rejects.toBeInstanceOf(MessageError);
    expect(stray.dataset.run).not.toHaveBeenCalled();
  });
});
