import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

const serviceWith = (ping: () => Promise<void>, connected = () => true) =>
  new HealthService({ ping, connected } as unknown as HealthRepository);

describe('HealthService', () => {
  it('is up when the ping answers', async () => {
    await expect(serviceWith(async () => undefined).appDbReachable()).resolves.toBe(true);
  });

  it('is down when the ping fails', async () => {
    await expect(serviceWith(() => Promise.reject(new Error('connection refused'))).appDbReachable()).resolves.toBe(false);
  });

  it('is down when the ping does not answer in time', async () => {
    // A ping that never answers: the check itself must give up, or this test would hang to jest's timeout.
    await expect(serviceWith(() => new Promise<void>(() => undefined)).appDbReachable(50)).resolves.toBe(false);
  });

  it('shares one ping among checks at the same time, and a success stands for a moment', async () => {
    const ping = jest.fn(async () => undefined);
    const health = serviceWith(ping);
    await expect(Promise.all(Array.from({ length: 20 }, () => health.appDbReachable()))).resolves.toEqual(Array(20).fill(true));
    await expect(health.appDbReachable()).resolves.toBe(true);
    expect(ping).toHaveBeenCalledTimes(1);
  });

  it('checks again after a failure, and is down at once when the connection is closed', async () => {
    let up = false;
    let open = true;
    const ping = jest.fn(async () => {
      if (!up) throw new Error('down');
    });
    const health = serviceWith(ping, () => open);
    await expect(health.appDbReachable()).resolves.toBe(false);
    up = true;
    await expect(health.appDbReachable()).resolves.toBe(true);
    expect(ping).toHaveBeenCalledTimes(2);
    open = false;
    await expect(health.appDbReachable()).resolves.toBe(false);
  });
});
