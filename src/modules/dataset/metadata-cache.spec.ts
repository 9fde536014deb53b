import type { DataSource, EntitySubscriberInterface } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import { ClusterEvent, ClusterOrigin } from '../../common/cluster/cluster-event';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseField } from '../../schema/field.entity';
import { Setting } from '../../schema/setting.entity';
import { MetadataCache } from './metadata-cache';

describe('MetadataCache', () => {
  const subscribers: EntitySubscriberInterface[] = [];
  let cache: MetadataCache;
  let loads: number;
  const load = (value: unknown) => async () => {
    loads++;
    return value;
  };
  const runner = (inTransaction: boolean) => ({ isTransactionActive: inTransaction, data: {} as Record<string, unknown> });
  const event = (target: unknown, queryRunner = runner(false)) => ({ metadata: { target }, queryRunner }) as never;

  beforeEach(() => {
    subscribers.length = 0;
    loads = 0;
    cache = new MetadataCache({ subscribers } as unknown as DataSource, { settingsRefreshSeconds: 3 } as AppConfig);
  });

  it('subscribes to the app database', () => {
    expect(subscribers).toEqual([cache]);
  });

  it('loads once, then answers from memory until the refresh period is over', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    try {
      expect(await cache.get('table:1', load({ id: 1 }))).toEqual({ id: 1 });
      expect(await cache.get('table:1', load({ id: 2 }))).toEqual({ id: 1 });
      now.mockReturnValue(3_999);
      expect(await cache.get('table:1', load({ id: 3 }))).toEqual({ id: 1 });
      now.mockReturnValue(4_000);
      expect(await cache.get('table:1', load({ id: 4 }))).toEqual({ id: 4 });
      expect(loads).toBe(2);
    } finally {
      now.mockRestore();
    }
  });

  it('shares one load between concurrent callers, and keeps no failure', async () => {
    const [x, y] = await Promise.all([cache.get('k', load('v')), cache.get('k', load('w'))]);
    expect([x, y, loads]).toEqual(['v', 'v', 1]);
    await expect(cache.get('bad', () => Promise.reject(new Error('app db down')))).rejects.toThrow('app db down');
    expect(await cache.get('bad', load('fine'))).toBe('fine');
  });

  it('hands out frozen values, since every query shares them', async () => {
    const fields = await cache.get('fields-of:1', load([{ id: 1, fingerprint: { global: { distinct: 3 } } }]));
    expect(() => (fields as Array<{ id: number }>).push({ id: 2 })).toThrow(TypeError);
    expect(Object.isFrozen((fields as Array<{ fingerprint: { global: object } }>)[0].fingerprint.global)).toBe(true);
    cache.set('field:9', { id: 9 });
    expect(Object.isFrozen(await cache.get('field:9', load(null)))).toBe(true);
  });

  it('drops everything when a table, field or database is written, not when other entities are', async () => {
    await cache.get('table:1', load('old'));
    cache.afterUpdate(event(Setting));
    expect(await cache.get('table:1', load('new'))).toBe('old');
    cache.afterUpdate(event(WarehouseField));
    expect(await cache.get('table:1', load('new'))).toBe('new');
    cache.afterRemove(event(WarehouseField));
    expect(await cache.get('table:1', load('newer'))).toBe('newer');
  });

  it('drops again when the writing transaction commits: a read in between saw the old rows', async () => {
    const tx = runner(true);
    cache.afterInsert(event(WarehouseField, tx));
    expect(await cache.get('fields-of:1', load('read before the commit'))).toBe('read before the commit');
    cache.afterTransactionCommit({ queryRunner: tx } as never);
    expect(await cache.get('fields-of:1', load('committed'))).toBe('committed');
    // Only a transaction that wrote metadata clears it.
    cache.afterTransactionCommit({ queryRunner: runner(true) } as never);
    expect(await cache.get('fields-of:1', load('again'))).toBe('committed');
  });

  describe('with the cluster bus', () => {
    let bus: ClusterEvents;
    let sent: Array<[ClusterEvent, ClusterOrigin]>;
    beforeEach(() => {
      bus = new ClusterEvents();
      sent = [];
      bus.subscribe((e, o) => sent.push([e, o]));
      cache = new MetadataCache({ subscribers } as unknown as DataSource, { settingsRefreshSeconds: 3 } as AppConfig, bus);
    });
    const remote = (event: ClusterEvent) =>
      (bus as unknown as { deliver(e: ClusterEvent, o: ClusterOrigin): void }).deliver(event, 'remote');

    it("drops everything on another instance's metadata event or after the bus reconnected, not on other events", async () => {
      await cache.get('table:1', load('old'));
      remote({ topic: 'settings' });
      expect(await cache.get('table:1', load('new'))).toBe('old');
      remote({ topic: 'metadata', id: 3 });
      expect(await cache.get('table:1', load('new'))).toBe('new');
      remote({ topic: 'all' });
      expect(await cache.get('table:1', load('newer'))).toBe('newer');
    });

    it('announces a write at once outside a transaction, and inside one only when it commits', async () => {
      cache.afterUpdate({ metadata: { target: WarehouseTable }, entity: { id: 5, db_id: 2 }, queryRunner: runner(false) } as never);
      expect(sent).toEqual([[{ topic: 'metadata', id: 2 }, 'local']]);
      const tx = runner(true);
      cache.afterInsert({ metadata: { target: WarehouseField }, entity: { id: 9 }, queryRunner: tx } as never);
      expect(sent).toHaveLength(1);
      cache.afterTransactionCommit({ queryRunner: tx } as never);
      expect(sent[1]).toEqual([{ topic: 'metadata' }, 'local']);
    });
  });
});
