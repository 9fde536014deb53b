import type { DataSource } from 'typeorm';
import { ClusterEvents } from '../cluster/cluster-events';
import type { ClusterEvent } from '../cluster/cluster-event';
import { CallerCache } from './caller-cache';

/** A bus whose state the test sets, recording what is published. */
class TestBus extends ClusterEvents {
  published: ClusterEvent[] = [];
  constructor(
    private readonly isLive: boolean,
    private readonly isDistributed: boolean,
  ) {
    super();
  }
  override get live(): boolean {
    return this.isLive;
  }
  override get distributed(): boolean {
    return this.isDistributed;
  }
  override async publish(event: ClusterEvent): Promise<void> {
    this.published.push(event);
    this.deliver(event, 'local');
  }
  receive(event: ClusterEvent): void {
    this.deliver(event, 'remote');
  }
}

function setup(bus = new TestBus(true, true)) {
  const db = { subscribers: [] as unknown[] };
  const cache = new CallerCache<string>(db as unknown as DataSource, { settingsRefreshSeconds: 3 }, bus);
  let loads = 0;
  const load = (value: string | undefined, validUntil?: number) => async () => {
    loads++;
    return value === undefined ? undefined : { value, validUntil };
  };
  return { cache, bus, db, load, loads: () => loads };
}

/** The TypeORM event shapes the cache reads. */
const write = (tableName: string, opts: { entity?: Record<string, unknown>; tx?: boolean; data?: Record<string, unknown> } = {}) =>
  ({
    metadata: { tableName },
    entity: opts.entity,
    queryRunner: { isTransactionActive: opts.tx ?? false, data: opts.data ?? {} },
  }) as never;

describe('CallerCache', () => {
  it('keeps found callers and asks again for unknown credentials', async () => {
    const { cache, load, loads } = setup();
    expect(await cache.get('s:a', load('ann'))).toBe('ann');
    expect(await cache.get('s:a', load('changed'))).toBe('ann');
    expect(await cache.get('s:x', load(undefined))).toBeUndefined();
    expect(await cache.get('s:x', load(undefined))).toBeUndefined();
    expect(loads()).toBe(3);
  });

  it.each(['session', 'user', 'permissions', 'all'] as const)(
    'forgets everything on a %s event, local or from another instance',
    async (topic) => {
      const { cache, bus, load } = setup();
      await cache.get('s:a', load('ann'));
      bus.receive({ topic });
      expect(await cache.get('s:a', load('ann again'))).toBe('ann again');
      void bus.publish({ topic, id: 3 });
      expect(await cache.get('s:a', load('ann thrice'))).toBe('ann thrice');
    },
  );

  it('keeps its entries on events that change no caller', async () => {
    const { cache, bus, load } = setup();
    await cache.get('s:a', load('ann'));
    bus.receive({ topic: 'settings' });
    bus.receive({ topic: 'metadata', id: 1 });
    expect(await cache.get('s:a', load('other'))).toBe('ann');
  });

  it('does not keep what a load read before a change cleared the cache', async () => {
    const { cache, bus } = setup();
    let finish: (v: { value: string }) => void = () => undefined;
    const pending = cache.get('s:a', () => new Promise((resolve) => (finish = resolve)));
    bus.receive({ topic: 'session' }); // the logout commits while the old row is on its way
    finish({ value: 'ann before logout' });
    expect(await pending).toBe('ann before logout');
    expect(await cache.get('s:a', async () => undefined)).toBeUndefined();
  });

  it('serves nothing from memory on a shared app DB while the bus is down', async () => {
    const { cache, load, loads } = setup(new TestBus(false, true));
    await cache.get('s:a', load('ann'));
    await cache.get('s:a', load('ann'));
    expect(loads()).toBe(2);
  });

  it('keeps entries on a single instance whose bus is in-process', async () => {
    const { cache, load, loads } = setup(new TestBus(false, false));
    await cache.get('s:a', load('ann'));
    await cache.get('s:a', load('ann'));
    expect(loads()).toBe(1);
  });

  it('does not keep a session at its age limit', async () => {
    const { cache, load, loads } = setup();
    await cache.get('s:a', load('ann', Date.now()));
    await cache.get('s:a', load('ann', Date.now()));
    expect(loads()).toBe(2);
  });

  describe('writes through the ORM', () => {
    it('clears and announces a removed session, a changed API key, a user deactivated or made admin, any membership change', async () => {
      const cases = [
        { event: () => write('core_session'), kind: 'afterRemove', topic: 'session' },
        { event: () => write('api_key', { entity: { key_hash: 'h' } }), kind: 'afterUpdate', topic: 'session' },
        { event: () => write('core_user', { entity: { is_active: false } }), kind: 'afterUpdate', topic: 'user' },
        { event: () => write('core_user', { entity: { is_superuser: true } }), kind: 'afterUpdate', topic: 'user' },
        { event: () => write('permissions_group_membership'), kind: 'afterInsert', topic: 'permissions' },
        { event: () => write('permissions_group_membership'), kind: 'afterRemove', topic: 'permissions' },
      ] as const;
      for (const c of cases) {
        const { cache, bus, load } = setup();
        await cache.get('s:a', load('ann'));
        cache[c.kind](c.event());
        expect(await cache.get('s:a', load('reloaded'))).toBe('reloaded');
        expect(bus.published).toEqual([{ topic: c.topic }]);
      }
    });

    it('ignores writes that change no cached caller: a new session or key, a user’s name or last login, other tables', async () => {
      const { cache, bus, load } = setup();
      await cache.get('s:a', load('ann'));
      cache.afterInsert(write('core_session'));
      cache.afterInsert(write('api_key'));
      cache.afterUpdate(write('core_user', { entity: { last_login: new Date(), first_name: 'A' } }));
      cache.afterRemove(write('report_card'));
      expect(await cache.get('s:a', load('other'))).toBe('ann');
      expect(bus.published).toEqual([]);
    });

    it('inside a transaction: clears at once, and announces only when it commits', async () => {
      const { cache, bus, load } = setup();
      const data: Record<string, unknown> = {};
      await cache.get('s:a', load('ann'));
      cache.afterUpdate(write('core_user', { entity: { is_active: false }, tx: true, data }));
      cache.afterRemove(write('core_session', { tx: true, data }));
      expect(bus.published).toEqual([]);
      expect(await cache.get('s:a', load('read inside'))).toBe('read inside');
      cache.afterTransactionCommit({ queryRunner: { data } } as never);
      expect(bus.published).toEqual([{ topic: 'user' }, { topic: 'session' }]);
      // What was read while the transaction was open is dropped at its commit.
      expect(await cache.get('s:a', load('after commit'))).toBe('after commit');
    });
  });
});
