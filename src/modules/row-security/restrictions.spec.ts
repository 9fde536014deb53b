import { fieldOf, restrictionsKey, restrictionsOf, type RestrictionInput } from './restrictions';
import type { PolicyRow } from './row-policies.repository';

const fields = [
  { id: 101, table_id: 10, name: 'USER_ID', base_type: 'type/Integer' },
  { id: 102, table_id: 10, name: 'REGION', base_type: 'type/Text' },
];
const policy = (group_id: number, extra: Partial<PolicyRow> = {}): PolicyRow => ({
  id: group_id,
  group_id,
  group_name: `G${group_id}`,
  table_id: 10,
  card_id: null,
  attribute_remappings: { uid: 'USER_ID' },
  ...extra,
});
const input = (extra: Partial<RestrictionInput>): RestrictionInput => ({
  policies: [],
  readers: [],
  fields,
  attributes: { uid: '3' },
  ...extra,
});

describe('restrictionsOf', () => {
  it('restricts a table by the policies of the groups that read the database, OR-ed', () => {
    const map = restrictionsOf(
      input({ policies: [policy(1), policy(2, { attribute_remappings: { region: 'REGION' } })], readers: [1, 2] }),
    );
    expect(map.get(10)).toEqual({
      tableId: 10,
      groups: ['G1', 'G2'],
      filters: [
        { group: 'G1', conditions: [{ fieldId: 101, column: 'USER_ID', baseType: 'type/Integer', attribute: 'uid', value: '3' }] },
        { group: 'G2', conditions: [{ fieldId: 102, column: 'REGION', baseType: 'type/Text', attribute: 'region', value: undefined }] },
      ],
    });
  });

  it('is lifted by another reading group without a policy; ignores policies of groups without access', () => {
    expect(restrictionsOf(input({ policies: [policy(1)], readers: [1, 3] })).size).toBe(0);
    expect(restrictionsOf(input({ policies: [policy(1), policy(2)], readers: [2] })).get(10)?.groups).toEqual(['G2']);
  });

  it('turns a policy it cannot apply into a refusal of the table, not an open table', () => {
    expect(
      restrictionsOf(input({ policies: [policy(1, { attribute_remappings: { uid: 'NOPE' } })], readers: [1] })).get(10)?.refusal,
    ).toMatch(/maps attribute `uid` to no column/);
    expect(restrictionsOf(input({ policies: [policy(1, { card_id: 5 })], readers: [1] })).get(10)?.refusal).toMatch(
      /not a query builder question/,
    );
  });
});

describe('restrictionsOf with question policies', () => {
  const question = (filter?: unknown) => ({
    type: 'query',
    query: { 'source-table': 10, fields: [['field', 101, null]], ...(filter ? { filter } : {}) },
  });

  it('combines questions that differ only in their filters into one query, each policy a part of its filter', () => {
    const a = policy(1, { card_id: 5, card_query: question(['>', ['field', 101, null], 1]) });
    const b = policy(2, { card_id: 6, card_query: question(), attribute_remappings: {} });
    const r = restrictionsOf(input({ policies: [a, b], readers: [1, 2] })).get(10)!;
    expect(r.refusal).toBeUndefined();
    expect(r.question).toEqual({
      groups: ['G1', 'G2'],
      cardIds: [5, 6],
      query: { 'source-table': 10, fields: [['field', 101, null]] },
      parts: [
        { group: 'G1', filter: ['>', ['field', 101, null], 1], conditions: [expect.objectContaining({ fieldId: 101, value: '3' })] },
        { group: 'G2', conditions: [] },
      ],
    });
  });

  it('refuses, naming the groups, questions of other columns, and a question with a filter policy', () => {
    const a = policy(1, { card_id: 5, card_query: question() });
    const other = policy(2, { card_id: 6, card_query: { type: 'query', query: { 'source-table': 10 } } });
    expect(restrictionsOf(input({ policies: [a, other], readers: [1, 2] })).get(10)?.refusal).toMatch(
      /groups G1, G2 .* cannot be combined/,
    );
    expect(restrictionsOf(input({ policies: [a, policy(2)], readers: [1, 2] })).get(10)?.refusal).toMatch(/groups G1, G2/);
  });
});

describe('restrictionsOf with SQL question policies', () => {
  const tags = { uid: { name: 'uid', type: 'number' }, region: { name: 'region', type: 'dimension', dimension: ['field', 102, null] } };
  const sqlQuestion = {
    type: 'native',
    native: { query: 'SELECT USER_ID FROM T WHERE USER_ID = {{uid}} AND {{region}}', 'template-tags': tags },
  };
  const columns = [{ name: 'USER_ID', base_type: 'type/Integer' }, { name: 'bad' }];
  const native = (extra: Partial<PolicyRow> = {}) =>
    policy(1, {
      card_id: 5,
      card_query: sqlQuestion,
      card_columns: columns,
      attribute_remappings: { uid: ['variable', ['template-tag', 'uid']], region: ['dimension', ['template-tag', 'region']] },
      ...extra,
    });

  it("binds each mapped template tag to the user's attribute, with the question's columns", () => {
    const r = restrictionsOf(input({ policies: [native()], readers: [1], attributes: { uid: '3', region: ['N', 'S'] } })).get(10)!;
    expect(r.refusal).toBeUndefined();
    expect(r.question).toBeUndefined();
    expect(r.nativeQuestion).toEqual({
      group: 'G1',
      cardId: 5,
      query: sqlQuestion.native,
      columns: [{ name: 'USER_ID', base_type: 'type/Integer' }],
      bindings: [
        { tag: 'uid', kind: 'variable', attribute: 'uid', value: '3' },
        { tag: 'region', kind: 'dimension', attribute: 'region', value: ['N', 'S'] },
      ],
    });
  });

  it('keys results by the bound values, and refuses a tag the question lacks or a second policy', () => {
    const key = (uid: string) =>
      restrictionsKey(restrictionsOf(input({ policies: [native()], readers: [1], attributes: { uid, region: 'N' } })));
    expect(key('3')).not.toBe(key('4'));
    const missing = native({ attribute_remappings: { uid: ['variable', ['template-tag', 'nope']] } });
    expect(restrictionsOf(input({ policies: [missing], readers: [1] })).get(10)?.refusal).toMatch(/maps attribute `uid` to no variable/);
    const two = restrictionsOf(input({ policies: [native(), policy(2)], readers: [1, 2] })).get(10)?.refusal;
    expect(two).toMatch(/groups G1, G2 .* cannot be combined: one of them uses a SQL question/);
  });
});

describe('fieldOf', () => {
  it('takes a column name (any case), a field id, or a dimension target', () => {
    expect(fieldOf('user_id', fields)?.id).toBe(101);
    expect(fieldOf(102, fields)?.id).toBe(102);
    expect(fieldOf(['dimension', ['field', 101, null]], fields)?.id).toBe(101);
    expect(fieldOf(['variable', ['template-tag', 'x']], fields)).toBeUndefined();
  });
});

describe('restrictionsKey', () => {
  it('differs with the attribute values, and is empty without restrictions', () => {
    const key = (uid: unknown) => restrictionsKey(restrictionsOf(input({ policies: [policy(1)], readers: [1], attributes: { uid } })));
    expect(key('3')).not.toBe(key('4'));
    expect(key('3')).toBe(key('3'));
    expect(restrictionsKey(new Map())).toBe('');
  });
});
