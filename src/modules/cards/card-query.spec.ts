import { toMbql5 } from '../../../test/support/mbql5';
import { deriveQuery } from './card-query';

describe('deriveQuery', () => {
  const legacy = {
    database: 1,
    type: 'query',
    query: {
      'source-table': 5,
      aggregation: [['metric', 9]],
      filter: ['segment', 3],
      joins: [{ alias: 'j', 'source-table': 'card__7', condition: ['=', 1, 1] }],
    },
  };

  it('reads the database, table, type and every reference of a legacy query', () => {
    const d = deriveQuery(legacy);
    expect(d).toMatchObject({ database_id: 1, table_id: 5, query_type: 'query', source_card_id: null });
    expect(d.references).toEqual(
      expect.arrayContaining([
        { kind: 'table', ref_id: 5 },
        { kind: 'metric', ref_id: 9 },
        { kind: 'segment', ref_id: 3 },
        { kind: 'card', ref_id: 7 },
      ]),
    );
    expect(d.references).toHaveLength(4);
  });

  it('reads the same from MBQL 5, source-card included', () => {
    expect(deriveQuery(toMbql5({ database: 1, type: 'query', query: { 'source-table': 'card__12', limit: 3 } }))).toEqual({
      database_id: 1,
      table_id: null,
      query_type: 'query',
      source_card_id: 12,
      references: [{ kind: 'card', ref_id: 12 }],
    });
  });

  it('takes the innermost source of nested queries, and card tags of native ones', () => {
    expect(deriveQuery({ database: 2, type: 'query', query: { 'source-query': { 'source-table': 4 } } })).toMatchObject({ table_id: 4 });
    const native = deriveQuery({
      database: 2,
      type: 'native',
      native: { query: 'SELECT * FROM {{#8}}', 'template-tags': { '#8': { name: '#8', type: 'card', 'card-id': 8 } } },
    });
    expect(native).toEqual({
      database_id: 2,
      table_id: null,
      query_type: 'native',
      source_card_id: null,
      references: [{ kind: 'card', ref_id: 8 }],
    });
  });

  it('keeps what it can of a query that does not normalize', () => {
    expect(deriveQuery({ database: 3, type: 'query', query: { 'source-table': 'nope', filter: 'x' } })).toMatchObject({
      database_id: 3,
      references: [],
    });
    expect(deriveQuery({ type: 'native' })).toMatchObject({ database_id: null, query_type: 'native' });
  });
});
