import { ValidationError } from '../../common/errors/api-errors';
import { bindable, bindTemplateTags, slugify } from './action-sql';

describe('bindTemplateTags', () => {
  const name = (tag: string) => tag.toUpperCase();
  const values = (o: Record<string, unknown>) => new Map(Object.entries(o));

  it('turns each tag into a placeholder and its value into a parameter, in order, also when a tag repeats', () => {
    expect(
      bindTemplateTags('UPDATE t SET a = {{a}}, b = {{ b }} WHERE id = {{id}} OR parent = {{id}}', values({ a: 'x', b: 2, id: 7 }), name),
    ).toEqual({
      sql: 'UPDATE t SET a = ?, b = ? WHERE id = ? OR parent = ?',
      params: ['x', 2, 7, 7],
    });
  });

  it('never puts a value into the SQL text', () => {
    const sly = "'); DROP TABLE t; --";
    const bound = bindTemplateTags('INSERT INTO t (name) VALUES ({{name}})', values({ name: sly }), name);
    expect(bound.sql).toBe('INSERT INTO t (name) VALUES (?)');
    expect(bound.params).toEqual([sly]);
  });

  it('keeps an optional clause only when all its tags have values', () => {
    const sql = 'DELETE FROM t WHERE 1 = 1 [[AND id = {{id}}]] [[AND kind = {{kind}} AND size = {{size}}]]';
    expect(bindTemplateTags(sql, values({ id: 1, kind: 'a' }), name)).toEqual({
      sql: 'DELETE FROM t WHERE 1 = 1 AND id = ? ',
      params: [1],
    });
    expect(bindTemplateTags(sql, values({ id: null }), name)).toEqual({ sql: 'DELETE FROM t WHERE 1 = 1  ', params: [] });
  });

  it('refuses a required tag without a value, naming it as Metabase does', () => {
    expect(() => bindTemplateTags('DELETE FROM t WHERE id = {{id}}', values({}), name)).toThrow(
      "You'll need to pick a value for 'ID' before this query can run.",
    );
    expect(() => bindTemplateTags('DELETE FROM t WHERE id = {{id}}', values({}), name)).not.toThrow(ValidationError);
  });
});

describe('bindable', () => {
  it('binds booleans as 1/0, maps and lists as JSON, and nothing as NULL', () => {
    expect([true, false, null, undefined, 3, 'x', { a: 1 }, [1, 2], BigInt(5)].map(bindable)).toEqual([
      1,
      0,
      null,
      null,
      3,
      'x',
      '{"a":1}',
      '[1,2]',
      '5',
    ]);
  });
});

describe('slugify', () => {
  it("makes Metabase's parameter ids of column names", () => {
    expect(['id', 'Name', 'created at', 'Order-Total', '__x__'].map(slugify)).toEqual(['id', 'name', 'created_at', 'order_total', 'x']);
  });
});
