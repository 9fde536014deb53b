import { BusQuery, EventBus } from './event-bus';

class ThingDeleted {
  constructor(readonly id: number) {}
}

class SpecialThingDeleted extends ThingDeleted {}

class ThingNames extends BusQuery<string[]> {
  constructor(readonly ids: number[]) {
    super();
  }
}

describe('EventBus', () => {
  it('runs the listeners of an event in the order they subscribed, each awaited before the next', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on(ThingDeleted, async (e) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(`first ${e.id}`);
    });
    bus.on(ThingDeleted, (e) => {
      seen.push(`second ${e.id}`);
    });
    await bus.emit(new ThingDeleted(7));
    expect(seen).toEqual(['first 7', 'second 7']);
  });

  it('matches the exact class: a subclass is another event', async () => {
    const bus = new EventBus();
    const seen: number[] = [];
    bus.on(ThingDeleted, (e) => void seen.push(e.id));
    await bus.emit(new SpecialThingDeleted(1));
    await bus.emit(new ThingDeleted(2));
    expect(seen).toEqual([2]);
  });

  it('hands a listener error to the emitter and skips the listeners after it', async () => {
    const bus = new EventBus();
    const later = jest.fn();
    bus.on(ThingDeleted, () => {
      throw new Error('no warehouse');
    });
    bus.on(ThingDeleted, later);
    await expect(bus.emit(new ThingDeleted(1))).rejects.toThrow('no warehouse');
    expect(later).not.toHaveBeenCalled();
  });

  it('emits to nobody without error', async () => {
    await expect(new EventBus().emit(new ThingDeleted(1))).resolves.toBeUndefined();
  });

  it('gathers every answer to a query, in subscription order', async () => {
    const bus = new EventBus();
    bus.answer(ThingNames, async (q) => q.ids.map((id) => `card ${id}`));
    bus.answer(ThingNames, (q) => q.ids.map((id) => `dashboard ${id}`));
    expect(await bus.ask(new ThingNames([1, 2]))).toEqual([
      ['card 1', 'card 2'],
      ['dashboard 1', 'dashboard 2'],
    ]);
  });

  it('answers no answers, and askOne undefined, when nobody answers', async () => {
    const bus = new EventBus();
    expect(await bus.ask(new ThingNames([1]))).toEqual([]);
    expect(await bus.askOne(new ThingNames([1]))).toBeUndefined();
  });

  it('askOne asks only the first answerer', async () => {
    const bus = new EventBus();
    const second = jest.fn();
    bus.answer(ThingNames, () => ['first']);
    bus.answer(ThingNames, second);
    expect(await bus.askOne(new ThingNames([]))).toEqual(['first']);
    expect(second).not.toHaveBeenCalled();
  });

  it('stops calling a listener or answerer once it unsubscribed', async () => {
    const bus = new EventBus();
    const listener = jest.fn();
    const off = bus.on(ThingDeleted, listener);
    const withdraw = bus.answer(ThingNames, () => ['x']);
    off();
    withdraw();
    await bus.emit(new ThingDeleted(1));
    expect(listener).not.toHaveBeenCalled();
    expect(await bus.ask(new ThingNames([]))).toEqual([]);
  });
});
