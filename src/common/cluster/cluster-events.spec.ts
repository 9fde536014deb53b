import { ClusterEvent, ClusterOrigin, decodeEvent, encodeEvent } from './cluster-event';
import { ClusterEvents } from './cluster-events';

describe('ClusterEvents (in-process, SQLite)', () => {
  it('delivers a published event to every subscriber, as local, and never reports itself live', async () => {
    const bus = new ClusterEvents();
    const seen: Array<[ClusterEvent, ClusterOrigin]> = [];
    bus.subscribe((e, o) => seen.push([e, o]));
    await bus.publish({ topic: 'settings' });
    expect(seen).toEqual([[{ topic: 'settings' }, 'local']]);
    expect(bus.live).toBe(false);
  });

  it('stops delivering after unsubscribing, and one failing handler does not stop the others', async () => {
    const bus = new ClusterEvents();
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error('boom');
    });
    const off = bus.subscribe((e) => seen.push(e.topic));
    await bus.publish({ topic: 'user', id: 3 });
    off();
    await bus.publish({ topic: 'user', id: 4 });
    expect(seen).toEqual(['user']);
  });
});

describe('cluster event payloads', () => {
  it('round-trips an event with its sender', () => {
    expect(decodeEvent(encodeEvent({ topic: 'metadata', id: 7 }, 'host:1:ab'))).toEqual({
      event: { topic: 'metadata', id: 7 },
      from: 'host:1:ab',
    });
    expect(decodeEvent(encodeEvent({ topic: 'settings' }, 'x'))).toEqual({ event: { topic: 'settings' }, from: 'x' });
  });

  it.each([undefined, '', 'not json', '{"t":"drop-tables","from":"x"}', '{"t":"settings"}', '{"t":"user","id":{},"from":"x"}'])(
    'ignores a malformed payload %p (or drops only its bad id)',
    (payload) => {
      const decoded = decodeEvent(payload);
      if (payload === '{"t":"user","id":{},"from":"x"}') expect(decoded).toEqual({ event: { topic: 'user' }, from: 'x' });
      else expect(decoded).toBeNull();
    },
  );
});
