import type { AppConfig } from '../../config/app-config';
import { QuerySlots, SHARED_SLOTS_FACTOR } from './query-slots';

const slotsOf = (maxQueriesPerUser: number) => new QuerySlots({ maxQueriesPerUser, queryQueueTimeoutSeconds: 30 } as AppConfig);
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Queries a test leaves waiting leave the line when it ends: otherwise their 30-second timeout fires later, during
 * another test file of the same worker, as an unhandled rejection.
 */
let leaving: AbortController;
beforeEach(() => (leaving = new AbortController()));
afterEach(() => leaving.abort());
const waitIn = (slots: QuerySlots, db: number, pool: number, who: number | string) =>
  slots.take(db, pool, who, leaving.signal).catch(() => null);

describe('QuerySlots', () => {
  it('runs MAX_QUERIES_PER_USER queries of a user at once on a database; the next waits its turn instead of failing', async () => {
    const slots = slotsOf(2);
    const [a, b] = await Promise.all([slots.take(1, 15, 7), slots.take(1, 15, 7)]);
    let third: (() => void) | null = null;
    void waitIn(slots, 1, 15, 7).then((release) => (third = release));
    await settle();
    expect(third).toBeNull();
    expect(slots.info(1)).toEqual({
      numRunningQueries: 2,
      numQueuedQueries: 1,
      numQueuedUsers: 1,
      longestQueuedMs: expect.any(Number),
      maxRunningQueries: 15,
      maxQueriesPerUser: 2,
    });
    // Another database is another pool: the user runs there at once.
    const elsewhere = await slots.take(2, 15, 7);
    expect(slots.runningFor(7)).toBe(3);
    a();
    await settle();
    expect(third).not.toBeNull();
    [b, third!, elsewhere].forEach((release) => release());
    expect(slots.runningFor(7)).toBe(0);
  });

  it('never lets one user take every connection of a pool, however high MAX_QUERIES_PER_USER is', async () => {
    const slots = slotsOf(10);
    await Promise.all([1, 2, 3].map(() => slots.take(1, 4, 7)));
    void waitIn(slots, 1, 4, 7);
    await settle();
    expect(slots.info(1)).toMatchObject({ numRunningQueries: 3, numQueuedQueries: 1, maxQueriesPerUser: 3 });
    // The fourth connection is another user's.
    await expect(slots.take(1, 4, 8)).resolves.toEqual(expect.any(Function));
  });

  it('lets the anonymous viewers of one shared object share several users’ worth of slots', async () => {
    const slots = slotsOf(2);
    const shared = 'public:dashboard:3';
    await Promise.all(Array.from({ length: 2 * SHARED_SLOTS_FACTOR }, () => slots.take(1, 15, shared)));
    void waitIn(slots, 1, 15, shared);
    await settle();
    expect(slots.info(1)).toMatchObject({ numRunningQueries: 2 * SHARED_SLOTS_FACTOR, numQueuedQueries: 1 });
    await expect(slots.take(1, 15, 'public:dashboard:4')).resolves.toEqual(expect.any(Function));
  });

  it('shows nothing for a database that has run no query', () => {
    expect(slotsOf(2).info(9)).toBeUndefined();
  });
});
