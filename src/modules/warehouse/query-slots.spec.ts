import type { AppConfig } from '../../config/app-config';
import { QuerySlots, SHARED_SLOTS_FACTOR } from './query-slots';

const slotsOf = (maxQueriesPerUser: number) => new QuerySlots({ maxQueriesPerUser } as AppConfig);

describe('QuerySlots', () => {
  it('gives a user MAX_QUERIES_PER_USER slots, then refuses with 429 until one is given back', () => {
    const slots = slotsOf(2);
    const [a] = [slots.take(7), slots.take(7)];
    expect(() => slots.take(7)).toThrow(expect.objectContaining({ status: 429, message: 'You have 2 queries running already. Wait for one of them to finish, then try again.' }));
    a();
    a();
    expect(slots.runningFor(7)).toBe(1);
    expect(() => slots.take(7)).not.toThrow();
  });

  it('lets the anonymous viewers of one shared object share several users’ worth of slots', () => {
    const slots = slotsOf(2);
    const shared = 'public:dashboard:3';
    for (let i = 0; i < 2 * SHARED_SLOTS_FACTOR; i++) slots.take(shared);
    expect(() => slots.take(shared)).toThrow(expect.objectContaining({ status: 429, message: `This shared content has ${2 * SHARED_SLOTS_FACTOR} queries running already. Wait for one of them to finish, then try again.` }));
    expect(() => slots.take('public:dashboard:4')).not.toThrow();
  });
});
