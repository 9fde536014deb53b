import { and, containsPattern, ident, inList, or, raw, sql } from './sql';

describe('Sql fragments', () => {
  it('binds values and numbers them only when the statement is put together', () => {
    const readable = or(sql`c.collection_id IS NULL`, inList(raw('c.collection_id'), [4, 5]));
    const where = and(sql`c.archived = ${false}`, readable, sql`c.name LIKE ${containsPattern('50%_off')} ESCAPE '\\'`);
    expect(sql`SELECT id FROM report_card c WHERE ${where} LIMIT ${10}`.numbered()).toEqual({
      text:
        'SELECT id FROM report_card c WHERE (c.archived = $1 AND (c.collection_id IS NULL OR c.collection_id IN ($2, $3))' +
        " AND c.name LIKE $4 ESCAPE '\\') LIMIT $5",
      values: [false, 4, 5, '%50\\%\\_off%', 10],
    });
  });

  it('numbers from a given first placeholder, and keeps a value used twice as two bindings', () => {
    const me = 7;
    expect(sql`a = ${me} OR b = ${me}`.numbered(3)).toEqual({ text: 'a = $3 OR b = $4', values: [7, 7] });
  });

  it('answers TRUE for no condition to meet, FALSE for none of no conditions and for an empty list', () => {
    expect([and().numbered().text, or().numbered().text, inList(raw('id'), []).numbered().text]).toEqual(['TRUE', 'FALSE', 'FALSE']);
    expect(and(undefined, sql`x = ${1}`, false).numbered()).toEqual({ text: 'x = $1', values: [1] });
  });

  it('never takes a value for SQL text: a name given as a value is bound, an identifier is quoted', () => {
    const evil = "x'; DROP TABLE core_user; --";
    expect(sql`name = ${evil}`.numbered()).toEqual({ text: 'name = $1', values: [evil] });
    expect(ident('c.na"me').numbered().text).toBe('"c"."na""me"');
  });
});
