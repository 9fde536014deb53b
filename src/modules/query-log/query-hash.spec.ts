import { canonicalJson } from './canonical-json';
import { queryHash, rawQueryHash } from './query-hash';

describe('queryHash', () => {
  const q = { database: 1, type: 'query', query: { 'source-table': 2, aggregation: [['count']] } };

  it('is 64 hex characters and ignores key order', () => {
    expect(queryHash(q)).toMatch(/^[0-9a-f]{64}$/);
    expect(queryHash({ query: { aggregation: [['count']], 'source-table': 2 }, type: 'query', database: 1 })).toBe(queryHash(q));
  });

  it('ignores constraints, middleware and empty parameters, but not parameter values', () => {
    expect(queryHash({ ...q, constraints: { 'max-results': 10 }, middleware: { 'js-int-to-string?': true }, parameters: [] })).toBe(
      queryHash(q),
    );
    const p = (value: unknown) => ({ ...q, parameters: [{ type: 'category', target: ['variable', ['template-tag', 'x']], value }] });
    expect(queryHash(p('a'))).not.toBe(queryHash(q));
    expect(queryHash(p('a'))).not.toBe(queryHash(p('b')));
    expect(queryHash({ ...q, database: 2 })).not.toBe(queryHash(q));
  });

  it('hashes a query as sent the same as its normalized form', () => {
    expect(rawQueryHash({ database: 1, type: 'query', query: { source_table: 2, aggregation: [['count']] } })).toBe(queryHash(q));
    expect(rawQueryHash(null)).toBe(queryHash({}));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[{"z":1}]},"b":1}');
  });
});
