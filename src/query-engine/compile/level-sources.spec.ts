import { compilerFor } from '.';
import { QueryCompileError, type MetadataSnapshot } from './contract';
import type { Engine } from '../types';

const none = (what: string) => {
  throw new Error(`${what} is not part of this query's metadata`);
};
const meta: MetadataSnapshot = { table: () => none('table'), field: () => none('field'), tableFields: () => [] };
const columns = [
  { name: 'ID', base_type: 'type/Integer' },
  { name: 'Q', base_type: 'type/Text' },
];

describe('a native source with bound values (a row security policy’s SQL question)', () => {
  it("binds its placeholders in step with the outer query's values, leaving `?` in literals and Postgres's `??` alone", () => {
    const native = `SELECT ID, '?' AS Q FROM T WHERE A = ? AND J ?? 'k' AND B IN (?, ?) -- why?`;
    const { sql, params } = compilerFor('postgres').compile(
      {
        native,
        'native-params': [1, 'two', 3],
        'native-columns': columns,
        filter: ['=', ['field', 'Q', { 'base-type': 'type/Text' }], 'outer'],
      },
      meta,
      { timezone: null },
    );
    expect(sql).toContain(`SELECT ID, '?' AS Q FROM T WHERE A = ? AND J ?? 'k' AND B IN (?, ?) -- why?\n)`);
    // The source's values come first: its SQL comes before the outer WHERE.
    expect(params).toEqual([1, 'two', 3, 'outer']);
  });

  it('reads `??` as two placeholders where the driver does (all but Postgres)', () => {
    const compile = (engine: Engine) =>
      compilerFor(engine).compile(
        { native: 'SELECT ID, Q FROM T WHERE A IN (??)', 'native-params': [1, 2], 'native-columns': columns },
        meta,
        { timezone: null },
      );
    expect(compile('sqlite').params).toEqual([1, 2]);
    expect(() => compile('postgres')).toThrow(QueryCompileError);
  });

  it('refuses values that do not match its placeholders', () => {
    const compile = (params: number[]) =>
      compilerFor('sqlite').compile(
        { native: 'SELECT ID, Q FROM T WHERE A = ?', 'native-params': params, 'native-columns': columns },
        meta,
        {
          timezone: null,
        },
      );
    expect(() => compile([])).toThrow(QueryCompileError);
    expect(() => compile([1, 2])).toThrow(/fewer placeholders than values/);
    expect(compile([1]).params).toEqual([1]);
  });
});
