import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

const serviceWith = (ping: () => Promise<void>) => new HealthService({ ping } as unknown as HealthRepository);

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
});
