import type { MetadataSnapshot } from '../compile/contract';
import type { DatasetQuery } from '../mbql/types';
import { applyRowPolicies } from './apply-row-policies';
import type { PreprocessContext } from './context';
import type { TableRestriction } from './row-policies';
import { PERSISTED_MODEL } from './substitute-persisted-models';

const ORDERS = 10;
const restriction: TableRestriction = {
  tableId: ORDERS,
  groups: ['Sales'],
  filters: [{ group: 'Sales', conditions: [{ fieldId: 101, column: 'USER_ID', baseType: 'type/Integer', attribute: 'uid', value: '3' }] }],
};
const ctx = (tables: TableRestriction[]) =>
  ({ policies: { restrictions: async () => new Map(tables.map((t) => [t.tableId, t])) } }) as unknown as PreprocessContext;
const mbql = (query: object): DatasetQuery => ({ database: 1, type: 'query', query }) as DatasetQuery;
/** Metadata is read again only for question policies, which these cases do not have. */
const state = (query: DatasetQuery) => ({ query, metadata: {} as MetadataSnapshot });
const USER_ID = (opts: object | null = null) => ['field', 101, opts];

describe('applyRowPolicies', () => {
  it('leaves queries alone without restrictions', async () => {
    const q = mbql({ 'source-table': ORDERS });
    expect((await applyRowPolicies(state(q), ctx([]))).query).toBe(q);
    expect((await applyRowPolicies(state(q), {} as PreprocessContext)).query).toBe(q);
  });

  it("adds the filter to a level's source table, kept with its own filter, at every depth", async () => {
    const q = mbql({ 'source-query': { 'source-table': ORDERS, filter: ['>', ['field', 102, null], 5] }, aggregation: [['count']] });
    expect((await applyRowPolicies(state(q), ctx([restriction]))).query.query).toEqual({
      'source-query': { 'source-table': ORDERS, filter: ['and', ['>', ['field', 102, null], 5], ['=', USER_ID(), 3]] },
      aggregation: [['count']],
    });
  });

  it("adds the filter to a join's condition, with the join's alias", async () => {
    const condition = ['=', ['field', 1, null], USER_ID({ 'join-alias': 'O' })];
    const q = mbql({ 'source-table': 20, joins: [{ 'source-table': ORDERS, alias: 'O', condition }] });
    expect((await applyRowPolicies(state(q), ctx([restriction]))).query.query!.joins).toEqual([
      { 'source-table': ORDERS, alias: 'O', condition: ['and', condition, ['=', USER_ID({ 'join-alias': 'O' }), 3]] },
    ]);
  });

  it('refuses right and full joins of a restricted table, SQL, and persisted model tables', async () => {
    const join = { 'source-table': ORDERS, alias: 'O', condition: ['=', 1, 1], strategy: 'right-join' };
    await expect(applyRowPolicies(state(mbql({ 'source-table': 20, joins: [join] })), ctx([restriction]))).rejects.toThrow(/right-join/);
    const native = { database: 1, type: 'native', native: { query: 'SELECT 1' } } as DatasetQuery;
    await expect(applyRowPolicies(state(native), ctx([restriction]))).rejects.toThrow(/Native queries are not allowed/);
    const persisted = mbql({ 'source-query': { native: 'SELECT * FROM model_1', [PERSISTED_MODEL]: 1 } });
    await expect(applyRowPolicies(state(persisted), ctx([restriction]))).rejects.toThrow(/Native queries are not allowed/);
  });
});
