import type { Sql } from '../../common/database/sql';
import { cardBranch, collectionBranch, hitCte, SEARCH_MODELS, SearchFilter, snippetBranch, tableBranch } from './search-branches';

const filter = (over: Partial<SearchFilter> = {}): SearchFilter => ({
  words: ['rev'],
  archived: false,
  createdBy: null,
  tableDbId: null,
  readableDbs: 'all',
  viewableTables: { dbs: 'all', tables: [] },
  ...over,
});
const all = new Set<string>(SEARCH_MODELS);

/** The statement's text and values, as AppSql would run it. */
const text = (s: Sql | null) => s?.numbered().text ?? null;

describe('hitCte', () => {
  it('scans the term index once per word and keeps objects found for every word', () => {
    const { text: sql, values } = hitCte(['rev', 'mon']).numbered();
    expect(values).toEqual(['rev', 'rew', 'mon', 'moo']);
    expect(sql).toContain('term >= $1 AND term < $2');
    expect(sql).toContain('term >= $3 AND term < $4');
    expect(sql).toContain('HAVING COUNT(*) = 2');
    expect(sql).not.toMatch(/JOIN/);
  });
});

describe('branches', () => {
  it('leave out kinds a filter cannot match', () => {
    expect(collectionBranch.sql(filter({ createdBy: [1] }), all)).toBeNull();
    expect(tableBranch.sql(filter({ archived: true }), all)).toBeNull();
    expect(snippetBranch.sql(filter({ tableDbId: 3 }), all)).toBeNull();
    expect(cardBranch.sql(filter(), new Set(['table']))).toBeNull();
  });

  it('start indexed kinds from the word index, and list them all without words', () => {
    expect(text(cardBranch.sql(filter(), all))).toContain('FROM hit h JOIN report_card o');
    expect(text(cardBranch.sql(filter({ words: [] }), all))).toContain('FROM report_card o WHERE');
  });

  it('restrict tables to the readable databases, and to none when there are none', () => {
    const some = tableBranch.sql(filter({ readableDbs: [4, 5] }), all)!.numbered();
    const [, a, b] = /o\.db_id IN \(\$(\d+), \$(\d+)\)/.exec(some.text) ?? [];
    expect([some.values[Number(a) - 1], some.values[Number(b) - 1]]).toEqual([4, 5]);
    expect(text(tableBranch.sql(filter({ readableDbs: [] }), all))).toContain('AND FALSE AND');
  });

  it('bind every word and filter value, none written into the text', () => {
    const hostile = "x' OR '1'='1";
    const s = snippetBranch.sql(filter({ words: [hostile], createdBy: [9] }), all)!.numbered();
    expect(s.text).not.toContain(hostile);
    expect(s.values).toEqual(expect.arrayContaining([false, `% ${hostile}%`, 9]));
  });
});
