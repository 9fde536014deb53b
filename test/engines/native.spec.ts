import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MetadataSnapshot, SqlCompiler } from '../../src/query-engine/compile/contract';
import type { SqlParam } from '../../src/query-engine/execute/drivers/driver';
import type { CardSource, ContentResolver, FieldMeta, MetadataProvider, TableMeta } from '../../src/query-engine/metadata';
import { compilerFor } from '../../src/query-engine/compile';
import { createDriver } from '../../src/query-engine/execute/drivers';
import type { Filter, NativeQuery, ParameterValue, TemplateTag } from '../../src/query-engine/mbql/types';
import { parseNativeQuery, referencedTags } from '../../src/query-engine/native/parse';
import { substituteNative, validateTemplateTags, type NativeContext } from '../../src/query-engine/native/substitute';
import { applyParameters } from '../../src/query-engine/parameters/apply-mbql';
import { ParameterError } from '../../src/query-engine/parameters/errors';

/** Fixtures for the native substitution tests: one `orders` table, a fake SQLite-flavoured filter compiler. */
const ORDERS: TableMeta = { id: 1, dbId: 1, schema: null, name: 'orders', displayName: 'Orders' };

function field(id: number, name: string, baseType: string): FieldMeta {
  return {
    id,
    tableId: 1,
    name,
    displayName: name,
    baseType,
    effectiveType: baseType,
    semanticType: null,
    fkTargetFieldId: null,
    visibilityType: 'normal',
    coercionStrategy: null,
    fingerprint: null,
    position: id,
  };
}

const FIELDS: FieldMeta[] = [
  field(10, 'id', 'type/Integer'),
  field(11, 'total', 'type/Float'),
  field(12, 'created_at', 'type/DateTime'),
  field(13, 'category', 'type/Text'),
  field(14, 'user_id', 'type/Integer'),
];

const meta: MetadataProvider = {
  async database(id) {
    return id === 1 ? { id: 1, engine: 'sqlite', timezone: null } : null;
  },
  async table(id) {
    return id === 1 ? ORDERS : null;
  },
  async field(id) {
    return FIELDS.find((f) => f.id === id) ?? null;
  },
  async tableFields(id) {
    return id === 1 ? FIELDS : [];
  },
};

const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Just enough of compileFilter for these tests: comparisons, string matches, and/or, day and minute units. */
const fakeCompiler: SqlCompiler = {
  engine: 'sqlite',
  quoteIdent: q,
  compile() {
    throw new Error('not in the fake');
  },
  compileFilter(filter: Filter, snap: MetadataSnapshot) {
    const params: SqlParam[] = [];
    const ref = (r: unknown[]): string => {
      const fm = snap.field(r[1] as number);
      const col = `${q(snap.table(fm.tableId).name)}.${q(fm.name)}`;
      const unit = (r[2] as { 'temporal-unit'?: string } | null)?.['temporal-unit'];
      if (unit === 'day') return `date(${col})`;
      if (unit === 'minute') return `strftime('%Y-%m-%dT%H:%M:00', ${col})`;
      if (unit) throw new Error(`unit ${unit} not in the fake`);
      return col;
    };
    const val = (v: unknown) => {
      params.push(v as SqlParam);
      return '?';
    };
    const go = (c: unknown[]): string => {
      const [op, ...args] = c as [string, ...unknown[]];
      switch (op) {
        case 'and':
        case 'or':
          return args.map((a) => `(${go(a as unknown[])})`).join(` ${op.toUpperCase()} `);
        case '=':
        case '!=': {
          const lhs = ref(args[0] as unknown[]);
          if (args.length === 2) return `${lhs} ${op === '=' ? '=' : '<>'} ${val(args[1])}`;
          return `${lhs} ${op === '=' ? 'IN' : 'NOT IN'} (${args.slice(1).map(val).join(', ')})`;
        }
        case '<':
        case '<=':
        case '>':
        case '>=':
          return `${ref(args[0] as unknown[])} ${op} ${val(args[1])}`;
        case 'between':
          return `${ref(args[0] as unknown[])} BETWEEN ${val(args[1])} AND ${val(args[2])}`;
        case 'contains':
          return `lower(${ref(args[0] as unknown[])}) LIKE ${val(`%${String(args[1]).toLowerCase()}%`)}`;
        case 'starts-with':
          return `lower(${ref(args[0] as unknown[])}) LIKE ${val(`${String(args[1]).toLowerCase()}%`)}`;
        default:
          throw new Error(`${op} not in the fake`);
      }
    };
    return { sql: go(filter), params };
  },
};

function contentResolver(cards: Record<number, CardSource>, snippets: Record<string, string>): ContentResolver & { cardCalls: number[] } {
  const cardCalls: number[] = [];
  const names = Object.keys(snippets);
  return {
    cardCalls,
    async card(id) {
      cardCalls.push(id);
      return cards[id] ?? null;
    },
    async segment() {
      return null;
    },
    async metric() {
      return null;
    },
    async snippet(nameOrId) {
      const name = typeof nameOrId === 'number' ? names[nameOrId - 1] : nameOrId;
      if (name === undefined || !(name in snippets)) return null;
      return { id: names.indexOf(name) + 1, name, content: snippets[name] };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

const NOW = new Date('2024-05-15T14:30:00Z');
const tag = (name: string, type: TemplateTag['type'], extra: Partial<TemplateTag> = {}): TemplateTag => ({
  name,
  'display-name': name,
  type,
  ...extra,
});
const tags = (...list: TemplateTag[]) => Object.fromEntries(list.map((t) => [t.name, t]));
const v = (name: string, value: unknown, type = 'category'): ParameterValue => ({
  type,
  target: ['variable', ['template-tag', name]],
  value,
});
const d = (name: string, value: unknown, type = 'category'): ParameterValue => ({
  type,
  target: ['dimension', ['template-tag', name]],
  value,
});
const ctx: NativeContext = { meta, compiler: fakeCompiler, now: NOW, timezone: 'UTC' };
const run = (query: string, templateTags: Record<string, TemplateTag>, params: ParameterValue[] = [], c: NativeContext = ctx) =>
  substituteNative({ query, 'template-tags': templateTags }, params, c);

describe('parseNativeQuery', () => {
  it('splits text, tags and optional clauses', () => {
    expect(parseNativeQuery('SELECT {{ x }} [[AND y = {{y}}]] {{#12-orders}} {{snippet:  Active users }}')).toEqual([
      { kind: 'text', text: 'SELECT ' },
      { kind: 'tag', ref: { kind: 'variable', name: 'x' } },
      { kind: 'text', text: ' ' },
      {
        kind: 'optional',
        pieces: [
          { kind: 'text', text: 'AND y = ' },
          { kind: 'tag', ref: { kind: 'variable', name: 'y' } },
        ],
      },
      { kind: 'text', text: ' ' },
      { kind: 'tag', ref: { kind: 'card', name: '#12-orders', cardId: 12 } },
      { kind: 'text', text: ' ' },
      { kind: 'tag', ref: { kind: 'snippet', name: 'snippet: Active users', snippetName: 'Active users' } },
    ]);
  });

  it('reports malformed queries clearly', () => {
    expect(() => parseNativeQuery('SELECT [[a [[b]] ]]')).toThrow(/optional clauses cannot be nested/);
    expect(() => parseNativeQuery('SELECT [[a')).toThrow('Invalid query: "[[" has no matching "]]"');
    expect(() => parseNativeQuery('SELECT {{a')).toThrow(/has no matching "}}"/);
    expect(() => parseNativeQuery('SELECT {{a {{b}}')).toThrow(/has no matching "}}"/);
    expect(() => parseNativeQuery('SELECT {{ }}')).toThrow(/empty template tag/);
    expect(() => parseNativeQuery('SELECT {{a b}}')).toThrow(/Invalid template tag name/);
    expect(() => parseNativeQuery('SELECT {{#0}}')).toThrow(ParameterError);
  });

  it('keeps a stray ]] or }} as SQL', () => {
    expect(parseNativeQuery("SELECT a[1]] , '}}'")).toEqual([{ kind: 'text', text: "SELECT a[1]] , '}}'" }]);
  });

  it('lists referenced tags once, with whether they are only optional', () => {
    expect(referencedTags('{{a}} [[{{b}} {{a}}]] [[{{b}}]] {{#3}} {{snippet: s}} {{ a }}')).toEqual([
      { name: 'a', kind: 'variable', optional: false },
      { name: 'b', kind: 'variable', optional: true },
      { name: '#3', kind: 'card', cardId: 3, optional: false },
      { name: 'snippet: s', kind: 'snippet', snippetName: 's', optional: false },
    ]);
  });
});

describe('validateTemplateTags', () => {
  it('requires a definition for every variable', () => {
    expect(() => validateTemplateTags({ query: 'SELECT {{x}}', 'template-tags': {} })).toThrow(
      /\{\{x\}\}, which has no template tag definition/,
    );
    expect(() => validateTemplateTags({ query: 'SELECT {{x}}', 'template-tags': tags(tag('x', 'text')) })).not.toThrow();
    expect(() => validateTemplateTags({ query: 'SELECT * FROM {{#5}} WHERE {{snippet: s}}' })).not.toThrow();
  });

  it('checks the definitions', () => {
    expect(() => validateTemplateTags({ query: '{{x}}', 'template-tags': tags(tag('x', 'dimension')) })).toThrow(
      /field filter without a field/,
    );
    expect(() => validateTemplateTags({ query: '{{x}}', 'template-tags': { x: { name: 'x', type: 'weird' as 'text' } } })).toThrow(
      /unknown type/,
    );
  });
});

describe('substituteNative: variables', () => {
  it('binds text values', async () => {
    expect(await run('SELECT * FROM t WHERE name = {{ name }}', tags(tag('name', 'text')), [v('name', 'Widget')])).toEqual({
      sql: 'SELECT * FROM t WHERE name = ?',
      params: ['Widget'],
    });
    expect(await run('WHERE name IN ({{name}})', tags(tag('name', 'text')), [v('name', ['a', 'b', 'c'])])).toEqual({
      sql: 'WHERE name IN (?, ?, ?)',
      params: ['a', 'b', 'c'],
    });
    expect(await run('{{name}}', tags(tag('name', 'text')), [v('name', 12)])).toEqual({ sql: '?', params: ['12'] });
  });

  it('binds numbers, parsing strings and comma lists', async () => {
    const t = tags(tag('n', 'number'));
    expect(await run('LIMIT {{n}}', t, [v('n', '5', 'number/=')])).toEqual({ sql: 'LIMIT ?', params: [5] });
    expect(await run('IN ({{n}})', t, [v('n', ['1', 2.5])])).toEqual({ sql: 'IN (?, ?)', params: [1, 2.5] });
    expect(await run('IN ({{n}})', t, [v('n', '1, 2,3')])).toEqual({ sql: 'IN (?, ?, ?)', params: [1, 2, 3] });
    await expect(run('{{n}}', t, [v('n', 'abc')])).rejects.toThrow(ParameterError);
    await expect(run('{{n}}', t, [v('n', '1; DROP TABLE x')])).rejects.toThrow(/is not a number/);
  });

  it('binds dates, with the dialect cast', async () => {
    const t = tags(tag('d', 'date'));
    expect(await run('WHERE day = {{d}}', t, [v('d', '2024-05-01', 'date/single')])).toEqual({
      sql: 'WHERE day = ?',
      params: ['2024-05-01'],
    });
    const cast = { ...ctx, castDate: (p: string, unit: string) => (unit === 'day' ? `CAST(${p} AS DATE)` : `CAST(${p} AS TIMESTAMP)`) };
    expect(await run('WHERE day = {{d}}', t, [v('d', '2024-05-01')], cast)).toEqual({
      sql: 'WHERE day = CAST(? AS DATE)',
      params: ['2024-05-01'],
    });
    expect(await run('WHERE at = {{d}}', t, [v('d', '2024-05-01T10:30')], cast)).toEqual({
      sql: 'WHERE at = CAST(? AS TIMESTAMP)',
      params: ['2024-05-01T10:30:00'],
    });
    expect(await run('{{d}}', t, [v('d', 'today')])).toEqual({ sql: '?', params: ['2024-05-15'] });
    expect(await run('{{d}}', t, [v('d', 'yesterday')], { ...ctx, timezone: 'Pacific/Auckland' })).toEqual({
      sql: '?',
      params: ['2024-05-15'],
    });
    await expect(run('{{d}}', t, [v('d', 'past30days')])).rejects.toThrow(/needs a single date/);
    await expect(run('{{d}}', t, [v('d', '2024-05')])).rejects.toThrow(/needs a single date/);
    await expect(run('{{d}}', t, [v('d', 'Q5-2024')])).rejects.toThrow('"Q5-2024" is not a valid date parameter');
  });

  it('uses defaults, and a request value over the default', async () => {
    const t = tags(tag('n', 'number', { default: '10' }), tag('s', 'text', { default: ['a', 'b'] }));
    expect(await run('{{n}} {{s}}', t)).toEqual({ sql: '? ?, ?', params: [10, 'a', 'b'] });
    expect(await run('{{n}} {{s}}', t, [v('n', 3), v('s', null)])).toEqual({ sql: '? ?, ?', params: [3, 'a', 'b'] });
  });

  it('names the missing required tag like Metabase', async () => {
    const t = tags(tag('created', 'date', { 'display-name': 'Created At', required: true }));
    await expect(run('WHERE c = {{created}}', t)).rejects.toThrow(
      new ParameterError("You'll need to pick a value for 'Created At' before this query can run."),
    );
    await expect(run('WHERE 1 [[AND c = {{created}}]]', t)).rejects.toThrow(/pick a value for 'Created At'/);
    await expect(run('WHERE c = {{created}}', t, [v('created', '')])).rejects.toThrow(/pick a value for 'Created At'/);
    const e = await run('{{created}}', t).catch((err: ParameterError) => err);
    expect(e).toBeInstanceOf(ParameterError);
    expect((e as ParameterError).tag).toBe('created');
    // Not required but outside an optional clause: still needs a value.
    await expect(run('WHERE c = {{x}}', tags(tag('x', 'text')))).rejects.toThrow(
      "You'll need to pick a value for 'x' before this query can run.",
    );
    // Required with a default is fine.
    expect(await run('{{x}}', tags(tag('x', 'text', { required: true, default: 'd' })))).toEqual({ sql: '?', params: ['d'] });
  });

  it('repeats a tag used twice', async () => {
    expect(await run('{{x}} = {{x}}', tags(tag('x', 'text')), [v('x', 'a')])).toEqual({ sql: '? = ?', params: ['a', 'a'] });
  });

  it('accepts dimension targets for variables and takes the last non-empty value', async () => {
    expect(await run('{{x}}', tags(tag('x', 'text')), [d('x', 'a'), v('x', 'b'), v('x', null)])).toEqual({ sql: '?', params: ['b'] });
  });

  it('substitutes tags in string literals and comments too', async () => {
    expect(await run("SELECT '{{x}}' -- {{x}}\n", tags(tag('x', 'text')), [v('x', 'a')])).toEqual({
      sql: "SELECT '?' -- ?\n",
      params: ['a', 'a'],
    });
  });

  it('rejects undefined tags and bad targets', async () => {
    await expect(run('{{nope}}', {})).rejects.toThrow(/\{\{nope\}\}, which has no template tag definition/);
    await expect(
      run('{{x}}', tags(tag('x', 'text')), [{ type: 'category', target: ['dimension', ['field', 1, null]], value: 'a' }]),
    ).rejects.toThrow(/expected a template tag/);
    await expect(run('{{x}}', tags(tag('x', 'text')), [{ type: 'category', value: 'a' }])).rejects.toThrow(ParameterError);
    await expect(run('{{x}}', tags(tag('x', 'text')), [v('x', { evil: true })])).rejects.toThrow(ParameterError);
  });

  it('ignores values for tags the query does not use', async () => {
    expect(await run('SELECT 1', {}, [v('other', 'a')])).toEqual({ sql: 'SELECT 1', params: [] });
  });
});

describe('substituteNative: optional clauses', () => {
  const t = tags(tag('cat', 'text'), tag('min', 'number'));
  const q = 'SELECT * FROM o WHERE 1 = 1 [[AND category = {{cat}}]] [[AND total > {{min}} AND category <> {{cat}}]]';

  it('drops a clause whose tag has no value', async () => {
    expect(await run(q, t)).toEqual({ sql: 'SELECT * FROM o WHERE 1 = 1  ', params: [] });
  });

  it('keeps it when every tag inside has a value', async () => {
    expect(await run(q, t, [v('cat', 'A')])).toEqual({ sql: 'SELECT * FROM o WHERE 1 = 1 AND category = ? ', params: ['A'] });
    expect(await run(q, t, [v('cat', 'A'), v('min', 5)])).toEqual({
      sql: 'SELECT * FROM o WHERE 1 = 1 AND category = ? AND total > ? AND category <> ?',
      params: ['A', 5, 'A'],
    });
  });

  it('keeps a clause with no tags and counts defaults as values', async () => {
    expect(await run('a [[b]] c', {})).toEqual({ sql: 'a b c', params: [] });
    expect(await run('a [[AND x = {{x}}]]', tags(tag('x', 'text', { default: 'd' })))).toEqual({ sql: 'a AND x = ?', params: ['d'] });
  });

  it('reports nested brackets', async () => {
    await expect(run('a [[b [[c]] ]]', {})).rejects.toThrow(/optional clauses cannot be nested/);
  });
});

describe('substituteNative: field filters', () => {
  const created = tag('created', 'dimension', { dimension: ['field', 12, null], 'widget-type': 'date/all-options' });
  const cat = tag('cat', 'dimension', { dimension: ['field', 13, null], 'widget-type': 'string/=' });
  const user = tag('user', 'dimension', { dimension: ['field', 14, null], 'widget-type': 'id' });

  it('compiles the value into a condition on the field', async () => {
    expect(await run('WHERE {{cat}}', tags(cat), [d('cat', ['A', 'B'], 'string/=')])).toEqual({
      sql: 'WHERE ("orders"."category" IN (?, ?))',
      params: ['A', 'B'],
    });
    expect(await run('WHERE {{user}}', tags(user), [d('user', '7', 'id')])).toEqual({ sql: 'WHERE ("orders"."user_id" = ?)', params: [7] });
    expect(await run('WHERE {{cat}}', tags(cat), [d('cat', 'wid', 'string/contains')])).toEqual({
      sql: 'WHERE (lower("orders"."category") LIKE ?)',
      params: ['%wid%'],
    });
  });

  it('resolves dates against now into a range', async () => {
    expect(await run('WHERE {{created}}', tags(created), [d('created', 'past30days', 'date/relative')])).toEqual({
      sql: 'WHERE ((date("orders"."created_at") >= ?) AND (date("orders"."created_at") < ?))',
      params: ['2024-04-15', '2024-05-15'],
    });
    expect(await run('WHERE {{created}}', tags(created), [d('created', '2024-05-01~', 'date/range')])).toEqual({
      sql: 'WHERE (date("orders"."created_at") >= ?)',
      params: ['2024-05-01'],
    });
  });

  it('is 1 = 1 without a value, or drops its optional clause', async () => {
    expect(await run('WHERE {{created}}', tags(created))).toEqual({ sql: 'WHERE 1 = 1', params: [] });
    expect(await run('WHERE {{created}}', tags(created), [d('created', null)])).toEqual({ sql: 'WHERE 1 = 1', params: [] });
    expect(await run('WHERE x [[AND {{created}}]]', tags(created))).toEqual({ sql: 'WHERE x ', params: [] });
    await expect(run('WHERE {{created}}', tags({ ...created, required: true, 'display-name': 'Created At' }))).rejects.toThrow(
      "You'll need to pick a value for 'Created At' before this query can run.",
    );
  });

  it('uses the default with the widget type', async () => {
    expect(await run('WHERE {{cat}}', tags({ ...cat, default: 'A' }))).toEqual({ sql: 'WHERE ("orders"."category" = ?)', params: ['A'] });
    expect(await run('WHERE {{user}}', tags({ ...user, 'widget-type': undefined, default: ['1', '2'] }))).toEqual({
      sql: 'WHERE ("orders"."user_id" IN (?, ?))',
      params: [1, 2],
    });
  });

  it('reports bad values, unknown fields and missing compilers', async () => {
    await expect(run('{{user}}', tags(user), [d('user', 'abc', 'id')])).rejects.toThrow(/Invalid value for 'user'/);
    await expect(run('{{created}}', tags(created), [d('created', 'Q5-2024', 'date/all-options')])).rejects.toThrow(
      /"Q5-2024" is not a valid date parameter/,
    );
    await expect(run('{{f}}', tags(tag('f', 'dimension', { dimension: ['field', 999, null] })), [d('f', 'x')])).rejects.toThrow(
      /Field 999/,
    );
    await expect(run('{{f}}', tags(tag('f', 'dimension')), [d('f', 'x')])).rejects.toThrow(/field filter without a field/);
    await expect(run('{{cat}}', tags(cat), [d('cat', 'x')], { now: NOW })).rejects.toThrow(/need a metadata provider and a compiler/);
  });
});

describe('substituteNative: cards', () => {
  const mbql = (id: number, databaseId = 1): CardSource => ({
    id,
    databaseId,
    query: { database: databaseId, type: 'query', query: { 'source-table': 1 } },
  });
  const native = (id: number, query: string, templateTags: Record<string, TemplateTag> = {}): CardSource => ({
    id,
    databaseId: 1,
    query: { database: 1, type: 'native', native: { query, 'template-tags': templateTags } },
  });
  const compileCard = jest.fn(async (card: CardSource) => ({
    sql: `SELECT * FROM orders WHERE id > ? /* card ${card.id} */;`,
    params: [card.id] as SqlParam[],
  }));

  it('inlines an MBQL card as a subquery, keeping parameter order', async () => {
    const content = contentResolver({ 12: mbql(12) }, {});
    const t = tags(tag('x', 'text'), tag('#12-orders', 'card', { 'card-id': 12 }));
    const out = await run('SELECT * FROM {{#12-orders}} o WHERE {{x}} = o.c AND {{#12-orders}} IS NOT NULL', t, [v('x', 'a')], {
      ...ctx,
      content,
      compileCard,
    });
    expect(out).toEqual({
      sql:
        'SELECT * FROM (SELECT * FROM orders WHERE id > ? /* card 12 */) o' +
        ' WHERE ? = o.c AND (SELECT * FROM orders WHERE id > ? /* card 12 */) IS NOT NULL',
      params: [12, 'a', 12],
    });
    expect(compileCard).toHaveBeenCalledWith(expect.objectContaining({ id: 12 }), [12]);
  });

  it('works without a tag definition and keeps a clause with a card', async () => {
    const content = contentResolver({ 12: mbql(12) }, {});
    expect((await run('SELECT 1 [[FROM {{#12}}]]', {}, [], { ...ctx, content, compileCard })).sql).toBe(
      'SELECT 1 FROM (SELECT * FROM orders WHERE id > ? /* card 12 */)',
    );
  });

  it('substitutes a native card with its own tags and defaults, not the outer values', async () => {
    const inner = native(
      13,
      'SELECT * FROM orders WHERE category = {{cat}} [[AND total > {{min}}]] -- note\n;',
      tags(tag('cat', 'text', { default: 'Widget' }), tag('min', 'number')),
    );
    const content = contentResolver({ 13: inner }, {});
    const out = await run('SELECT count(*) FROM {{#13-x}} WHERE {{cat}}', tags(tag('cat', 'text')), [v('cat', 'outer'), v('min', 3)], {
      ...ctx,
      content,
    });
    expect(out).toEqual({
      sql: 'SELECT count(*) FROM (SELECT * FROM orders WHERE category = ?  -- note\n) WHERE ?',
      params: ['Widget', 'outer'],
    });
  });

  it('does not fetch a card inside a dropped optional clause', async () => {
    const content = contentResolver({}, {});
    expect(await run('SELECT 1 [[WHERE {{x}} IN {{#99}}]]', tags(tag('x', 'text')), [], { ...ctx, content })).toEqual({
      sql: 'SELECT 1 ',
      params: [],
    });
    expect(content.cardCalls).toEqual([]);
  });

  it('detects cycles', async () => {
    const content = contentResolver(
      { 1: native(1, 'SELECT * FROM {{#2}}'), 2: native(2, 'SELECT * FROM {{#3}}'), 3: native(3, 'SELECT * FROM {{#1}}') },
      {},
    );
    await expect(run('SELECT * FROM {{#1}}', {}, [], { ...ctx, content })).rejects.toThrow(
      'This query has circular referencing sub-queries: #1 -> #2 -> #3 -> #1',
    );
    const self = contentResolver({ 5: native(5, 'SELECT * FROM {{#5}}') }, {});
    await expect(run('{{#5}}', {}, [], { ...ctx, content: self })).rejects.toThrow(/#5 -> #5/);
    // A card the caller is already expanding.
    const plain = contentResolver({ 7: mbql(7) }, {});
    await expect(run('{{#7}}', {}, [], { ...ctx, content: plain, compileCard, cardChain: [7] })).rejects.toThrow(/circular/);
  });

  it('bounds the depth', async () => {
    const cards: Record<number, CardSource> = {};
    for (let i = 1; i <= 20; i++) cards[i] = native(i, i === 20 ? 'SELECT 1' : `SELECT * FROM {{#${i + 1}}}`);
    const content = contentResolver(cards, {});
    await expect(run('{{#1}}', {}, [], { ...ctx, content })).rejects.toThrow(/nested too deeply \(more than 10 levels\)/);
    const ok = await run('{{#15}}', {}, [], { ...ctx, content });
    expect(ok.sql).toBe('(SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT 1))))))');
  });

  it('reports missing cards, other databases and missing compilers', async () => {
    const content = contentResolver({ 8: mbql(8, 2) }, {});
    await expect(run('{{#99}}', {}, [], { ...ctx, content })).rejects.toThrow('Card 99 does not exist');
    await expect(run('{{#8}}', {}, [], { ...ctx, content, compileCard, databaseId: 1 })).rejects.toThrow(/another database/);
    await expect(run('{{#8}}', {}, [], { ...ctx, content })).rejects.toThrow(/compileCard/);
  });
});

describe('substituteNative: snippets', () => {
  const snippets = {
    'Active users': 'users.active = TRUE',
    'big orders': 'total > {{min}}',
    outer: '{{snippet: Active users}} AND {{snippet: big orders}}',
    loopA: 'a {{snippet: loopB}}',
    loopB: 'b {{snippet: loopA}}',
  };

  it('inlines snippet content, with or without a tag definition', async () => {
    const c = { ...ctx, content: contentResolver({}, snippets) };
    expect(await run('WHERE {{snippet: Active users}}', {}, [], c)).toEqual({ sql: 'WHERE users.active = TRUE', params: [] });
    const t = tags(tag('snippet: Active users', 'snippet', { 'snippet-name': 'Active users', 'snippet-id': 1 }));
    expect(await run('WHERE {{ snippet:Active users }}', t, [], c)).toEqual({ sql: 'WHERE users.active = TRUE', params: [] });
  });

  it('substitutes tags inside snippets, nested snippets included', async () => {
    const c = { ...ctx, content: contentResolver({}, snippets) };
    const t = tags(tag('min', 'number'));
    expect(await run('WHERE {{snippet: outer}}', t, [v('min', '100')], c)).toEqual({
      sql: 'WHERE users.active = TRUE AND total > ?',
      params: [100],
    });
    expect(await run('WHERE 1 [[AND {{snippet: big orders}}]]', t, [], c)).toEqual({ sql: 'WHERE 1 ', params: [] });
  });

  it('detects cycles and bounds recursion', async () => {
    const c = { ...ctx, content: contentResolver({}, snippets) };
    await expect(run('{{snippet: loopA}}', {}, [], c)).rejects.toThrow('Snippet "loopA" refers to itself: loopA -> loopB -> loopA');
    const deep: Record<string, string> = {};
    for (let i = 0; i < 15; i++) deep[`s${i}`] = i === 14 ? 'x' : `{{snippet: s${i + 1}}}`;
    const dc = { ...ctx, content: contentResolver({}, deep) };
    await expect(run('{{snippet: s0}}', {}, [], dc)).rejects.toThrow(/Snippets are nested too deeply/);
    expect(await run('{{snippet: s0}}', {}, [], { ...dc, maxSnippetDepth: 20 })).toEqual({ sql: 'x', params: [] });
    await expect(run('{{snippet: nope}}', {}, [], c)).rejects.toThrow('Snippet "nope" does not exist');
  });
});

describe('hostile values stay in params', () => {
  const evil = "'; DROP TABLE x; --";
  it.each([
    ['text', tags(tag('x', 'text')), [v('x', evil)]],
    ['text list', tags(tag('x', 'text')), [v('x', [evil, 'ok'])]],
    ['field filter =', tags(tag('x', 'dimension', { dimension: ['field', 13, null] })), [d('x', evil, 'string/=')]],
    ['field filter contains', tags(tag('x', 'dimension', { dimension: ['field', 13, null] })), [d('x', evil, 'string/contains')]],
    ['default', tags(tag('x', 'text', { default: evil })), []],
  ])('%s', async (_name, t, params) => {
    const out = await run('SELECT * FROM o WHERE c = {{x}} [[AND d = {{x}}]]', t, params as ParameterValue[]);
    expect(out.sql).not.toContain('DROP');
    expect(out.sql).not.toContain("'");
    expect(JSON.stringify(out.params).toUpperCase()).toContain('DROP TABLE X');
  });

  it('rejects it where a number or date is expected', async () => {
    await expect(run('{{x}}', tags(tag('x', 'number')), [v('x', evil)])).rejects.toThrow(ParameterError);
    await expect(run('{{x}}', tags(tag('x', 'date')), [v('x', evil)])).rejects.toThrow(ParameterError);
    await expect(
      run('{{x}}', tags(tag('x', 'dimension', { dimension: ['field', 12, null] })), [d('x', evil, 'date/single')]),
    ).rejects.toThrow(ParameterError);
  });
});

describe.each([
  ['the fake compiler', fakeCompiler],
  ['compilerFor(sqlite)', compilerFor('sqlite')],
])('end to end on SQLite with %s', (_name, compiler) => {
  let dir: string;
  let driver: ReturnType<typeof createDriver>;

  beforeAll(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'native-params-')));
    fs.writeFileSync(path.join(dir, 'w.db'), '');
    driver = createDriver('sqlite', { db: path.join(dir, 'w.db') }, { writable: true });
    await driver.query(
      'CREATE TABLE orders (id INTEGER PRIMARY KEY, total DOUBLE, created_at TIMESTAMP, category VARCHAR(20), user_id INTEGER)',
    );
    await driver.query(
      `INSERT INTO orders VALUES
        (1, 10, '2024-04-01 09:00:00', 'Widget', 1),
        (2, 50, '2024-04-20 23:59:59', 'Gizmo', 2),
        (3, 75, '2024-05-01 00:00:00', 'Widget', 1),
        (4, 120, '2024-05-14 12:00:00', 'Gadget', 3),
        (5, 200, '2024-05-15 08:00:00', 'Widget', 2),
        (6, 5, '2024-05-31 23:00:00', 'Gizmo', 3)`,
    );
  });

  afterAll(async () => {
    await driver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const native: NativeQuery = {
    query: 'SELECT id FROM orders WHERE total > {{min}} [[AND category = {{cat}}]] AND {{created}} ORDER BY id',
    'template-tags': tags(
      tag('min', 'number', { required: true }),
      tag('cat', 'text'),
      tag('created', 'dimension', { dimension: ['field', 12, null], 'widget-type': 'date/all-options' }),
    ),
  };
  const ids = async (params: ParameterValue[]) => {
    const { sql, params: bound } = await substituteNative(native, params, { ...ctx, compiler });
    return (await driver.query(sql, bound, { readOnly: true })).rows.map((r) => r[0]);
  };

  it('runs with a number tag only', async () => {
    expect(await ids([v('min', '20')])).toEqual([2, 3, 4, 5]);
  });

  it('adds the optional clause when the text tag has a value', async () => {
    expect(await ids([v('min', '20'), v('cat', 'Widget')])).toEqual([3, 5]);
  });

  it('applies the date field filter', async () => {
    expect(await ids([v('min', 0), d('created', '2024-05', 'date/month-year')])).toEqual([3, 4, 5, 6]);
    expect(await ids([v('min', 0), d('created', '2024-04-20~2024-05-01', 'date/range')])).toEqual([2, 3]);
    expect(await ids([v('min', 0), d('created', 'past30days', 'date/relative')])).toEqual([2, 3, 4]);
    expect(await ids([v('min', 0), d('created', 'today', 'date/relative')])).toEqual([5]);
    expect(await ids([v('min', 20), v('cat', 'Widget'), d('created', '2024-05-15', 'date/single')])).toEqual([5]);
  });

  it('also filters MBQL queries', async () => {
    if (compiler === fakeCompiler) return; // needs the real compile()
    const snap = { table: () => ORDERS, field: (id: number) => FIELDS.find((x) => x.id === id)!, tableFields: () => FIELDS };
    const query = applyParameters(
      { 'source-table': 1, fields: [['field', 10, null]], 'order-by': [['asc', ['field', 10, null]]] },
      [
        { type: 'date/all-options', target: ['dimension', ['field', 12, null]], value: '2024-04-20~2024-05-14' },
        { type: 'string/=', target: ['dimension', ['field', 13, null]], value: ['Widget', 'Gadget'] },
        { type: 'number/between', target: ['dimension', ['field', 11, null]], value: ['50', null] },
      ],
      { now: NOW, timezone: 'UTC' },
    );
    const compiled = compiler.compile(query, snap, { timezone: null });
    expect(compiled.sql).not.toContain('Widget');
    expect((await driver.query(compiled.sql, compiled.params, { readOnly: true })).rows.map((r) => r[0])).toEqual([3, 4]);
  });

  it('keeps a hostile value harmless', async () => {
    expect(await ids([v('min', 0), v('cat', "'; DROP TABLE orders; --")])).toEqual([]);
    expect((await driver.query('SELECT count(*) FROM orders')).rows).toEqual([[6]]);
  });
});

describe('targets by tag id', () => {
  it('finds the tag by its id', async () => {
    const t = tags(tag('x', 'text', { id: 'abc-123' }));
    const p: ParameterValue = { type: 'category', target: ['variable', ['template-tag', { id: 'abc-123' }]], value: 'a' };
    expect(await run('{{x}}', t, [p])).toEqual({ sql: '?', params: ['a'] });
    const other: ParameterValue = { type: 'category', target: ['variable', ['template-tag', { id: 'zzz' }]], value: 'a' };
    expect(await run('SELECT 1', t, [other])).toEqual({ sql: 'SELECT 1', params: [] });
  });
});
