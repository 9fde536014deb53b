import { inList, raw } from '../../common/database/sql';
import {
  cardBranch,
  collectionBranch,
  hitCte,
  SEARCH_MODELS,
  SearchFilter,
  snippetBranch,
  SqlParams,
  tableBranch,
} from './search-branches';

const filter = (over: Partial<SearchFilter> = {}): SearchFilter => ({
  words: ['rev'],
  archived: false,
  createdBy: null,
  tableDbId: null,
  readableDbs: 'all',
  ...over,
});
const all = new Set<string>(SEARCH_MODELS);

describe('hitCte', () => {
  it('scans the term index once per word and keeps objects found for every word', () => {
    const p = new SqlParams();
    const sql = hitCte(['rev', 'mon'], p);
    expect(p.values).toEqual(['rev', 'rew', 'mon', 'moo']);
    expect(sql).toContain('term >= $1 AND term < $2');
    expect(sql).toContain('term >= $3 AND term < $4');
    expect(sql).toContain('HAVING COUNT(*) = 2');
    expect(sql).not.toMatch(/JOIN/);
  });
});

describe('SqlParams', () => {
  it("numbers a condition's values from the next free placeholder", () => {
    const p = new SqlParams();
    expect(p.add('a')).toBe('$1');
    const cond = p.addSql(inList(raw('x'), [7, 8]));
    expect(cond).toBe('x IN ($2, $3)');
    expect(p.add('b')).toBe('$4');
    expect(p.values).toEqual(['a', 7, 8, 'b']);
  });
});

describe('branches', () => {
  it('leave out kinds a filter cannot match', () => {
    const p = new SqlParams();
    expect(collectionBranch.sql(filter({ createdBy: [1] }), all, p)).toBeNull();
    expect(tableBranch.sql(filter({ archived: true }), all, p)).toBeNull();
    expect(snippetBranch.sql(filter({ tableDbId: 3 }), all, p)).toBeNull();
    expect(cardBranch.sql(filter(), new Set(['table']), p)).toBeNull();
  });

  it('start indexed kinds from the word index, and list them all without words', () => {
    const p = new SqlParams();
    expect(cardBranch.sql(filter(), all, p)).toContain('FROM hit h JOIN report_card o');
    expect(cardBranch.sql(filter({ words: [] }), all, p)).toContain('FROM report_card o WHERE');
  });

  it('restrict tables to the readable databases, and to none when there are none', () => {
    const p = new SqlParams();
    expect(tableBranch.sql(filter({ readableDbs: [4, 5] }), all, p)).toMatch(/o\.db_id IN \(\$\d+, \$\d+\)/);
    expect(tableBranch.sql(filter({ readableDbs: [] }), all, p)).toContain('AND FALSE AND');
  });
});
