import type { DataSource, EntityManager } from 'typeorm';
import { ClusterEvents } from '../cluster/cluster-events';
import type { ClusterEvent } from '../cluster/cluster-event';
import { GrantsCache, grantsWritten } from './grants-cache';

class TestBus extends ClusterEvents {
  published: ClusterEvent[] = [];
  override get live(): boolean {
    return true;
  }
  override get distributed(): boolean {
    return true;
  }
  override async publish(event: ClusterEvent): Promise<void> {
    this.published.push(event);
    this.deliver(event, 'local');
  }
}

function setup() {
  const bus = new TestBus();
  const cache = new GrantsCache({ subscribers: [] } as unknown as DataSource, { settingsRefreshSeconds: 3 }, bus);
  let loads = 0;
  const load = (value: string) => async () => {
    loads++;
    return value;
  };
  return { cache, bus, load, loads: () => loads };
}

/** A transaction's manager as grantsWritten and the commit and rollback events see it. */
const txOf = (active = true) => {
  const queryRunner = { isTransactionActive: active, data: {} as Record<string, unknown> };
  return { tx: { queryRunner } as unknown as EntityManager, event: { queryRunner } as never };
};

describe('GrantsCache', () => {
  it('keeps an answer per kind, set of groups (in any order) and what else it depends on', async () => {
    const { cache, load, loads } = setup();
    expect(await cache.of('grants', [3, 1], 7, load('a'))).toBe('a');
    expect(await cache.of('grants', [1, 3], 7, load('b'))).toBe('a');
    expect(await cache.of('grants', [1, 3], 8, load('c'))).toBe('c');
    expect(await cache.of('grants', [1], 7, load('d'))).toBe('d');
    expect(await cache.of('policies', [1, 3], 7, load('e'))).toBe('e');
    expect(loads()).toBe(4);
  });

  it('forgets everything on a permissions event', async () => {
    const { cache, bus, load } = setup();
    await cache.of('grants', [1], 7, load('a'));
    void bus.publish({ topic: 'permissions' });
    expect(await cache.of('grants', [1], 7, load('b'))).toBe('b');
  });

  it('reads again after a plain-SQL grant write commits, and tells the other instances', async () => {
    const { cache, bus, load } = setup();
    await cache.of('grants', [1], 7, load('a'));
    const { tx, event } = txOf();
    grantsWritten(tx);
    cache.afterTransactionCommit(event);
    expect(bus.published).toEqual([{ topic: 'permissions' }]);
    expect(await cache.of('grants', [1], 7, load('b'))).toBe('b');
  });

  it('drops what was read during a rolled-back write, without telling anybody', async () => {
    const { cache, bus, load } = setup();
    const { tx, event } = txOf();
    grantsWritten(tx);
    await cache.of('grants', [1], 7, load('uncommitted'));
    cache.afterTransactionRollback(event);
    expect(await cache.of('grants', [1], 7, load('b'))).toBe('b');
    expect(bus.published).toEqual([]);
  });

  it('refuses a plain-SQL grant write outside a transaction, which nobody would announce', () => {
    expect(() => grantsWritten(txOf(false).tx)).toThrow(/must run in a transaction/);
  });

  it('reads again after an ORM write to a grant table, and not after other writes to a card', async () => {
    const { cache, load } = setup();
    await cache.of('policies', [1], 7, load('a'));
    const card = (entity: Record<string, unknown>) =>
      ({ metadata: { tableName: 'report_card' }, entity, queryRunner: { isTransactionActive: false, data: {} } }) as never;
    cache.afterUpdate(card({ view_count: 3 }));
    expect(await cache.of('policies', [1], 7, load('b'))).toBe('a');
    cache.afterUpdate(card({ dataset_query: '{}' }));
    expect(await cache.of('policies', [1], 7, load('c'))).toBe('c');
    cache.afterInsert({ metadata: { tableName: 'table_permission' }, queryRunner: { isTransactionActive: false, data: {} } } as never);
    expect(await cache.of('policies', [1], 7, load('d'))).toBe('d');
  });
  it('shares one load among callers that miss at once; a load that fails fails them all and is not kept', async () => {
    const { cache, load, loads } = setup();
    const both = await Promise.all([cache.of('grants', [1], 7, load('a')), cache.of('grants', [1], 7, load('b'))]);
    expect(both).toEqual(['a', 'a']);
    expect(loads()).toBe(1);
    const failing = () => Promise.reject(new Error('app DB gone'));
    const failed = await Promise.allSettled([cache.of('grants', [2], 7, failing), cache.of('grants', [2], 7, load('c'))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await cache.of('grants', [2], 7, load('d'))).toBe('d');
  });

  it('does not hand a load that started before a clear to callers after it', async () => {
    const { cache, bus, load } = setup();
    let finish!: (v: string) => void;
    const before = cache.of('grants', [1], 7, () => new Promise<string>((resolve) => (finish = resolve)));
    void bus.publish({ topic: 'permissions' });
    const after = cache.of('grants', [1], 7, load('new'));
    finish('old');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await cache.of('grants', [1], 7, load('newer'))).toBe('new');
  });
});
