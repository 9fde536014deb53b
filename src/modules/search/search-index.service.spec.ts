import type { DataSource, EntityManager } from 'typeorm';
import { SearchIndexRepository } from './search-index.repository';
import { SearchIndexService } from './search-index.service';

/** SearchIndexService.index: the words it keeps of an object, with the query builder of the transaction recorded. */
describe('SearchIndexService', () => {
  function recordingTx() {
    const ops: Array<{ op: string; values?: Array<Record<string, unknown>>; params?: unknown }> = [];
    const tx = {
      createQueryBuilder: () => {
        const entry: (typeof ops)[number] = { op: '' };
        const qb = {
          delete: () => ((entry.op = 'delete'), qb),
          insert: () => ((entry.op = 'insert'), qb),
          from: () => qb,
          into: () => qb,
          where: (_sql: string, params: unknown) => ((entry.params = params), qb),
          values: (v: Array<Record<string, unknown>>) => ((entry.values = v), qb),
          execute: async () => void ops.push(entry),
        };
        return qb;
      },
    };
    return { tx: tx as unknown as EntityManager, ops };
  }

  it("replaces the object's words: each once, marked when in the name, the description's others after", async () => {
    const { tx, ops } = recordingTx();
    await new SearchIndexService(new SearchIndexRepository({ options: { type: 'sqlite' } } as unknown as DataSource)).index(tx, 'card', 5, {
      name: 'Orders by Month',
      description: 'Monthly orders, by region',
    });
    expect(ops[0]).toEqual({ op: 'delete', params: { model: 'card', ids: [5] } });
    const terms = ops.slice(1).flatMap((o) => o.values!);
    expect(terms.filter((t) => t.in_name).map((t) => t.term)).toEqual(expect.arrayContaining(['orders', 'month']));
    const described = terms.filter((t) => !t.in_name).map((t) => t.term);
    expect(described).toEqual(expect.arrayContaining(['monthly', 'region']));
    expect(described).not.toContain('orders');
    expect(new Set(terms.map((t) => `${t.term}:${t.in_name}`)).size).toBe(terms.length);
    expect(terms.every((t) => t.model === 'card' && t.model_id === 5)).toBe(true);
  });

  it('writes a long text in batches of 200 rows', async () => {
    const { tx, ops } = recordingTx();
    const words = Array.from({ length: 450 }, (_, i) => `word${i}`).join(' ');
    await new SearchIndexService(new SearchIndexRepository({ options: { type: 'sqlite' } } as unknown as DataSource)).index(
      tx,
      'dashboard',
      1,
      {
        name: 'x',
        description: words,
      },
    );
    expect(ops.filter((o) => o.op === 'insert').map((o) => o.values!.length)).toEqual([200, 200, 51]);
  });
});
