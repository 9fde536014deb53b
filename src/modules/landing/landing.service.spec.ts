import type { UsersRepository } from '../users';
import { LandingService } from './landing.service';

/** LandingService: the next step is shown only while nobody has set the server up. */
describe('LandingService', () => {
  const service = (users: number) => new LandingService({ count: jest.fn().mockResolvedValue(users) } as unknown as UsersRepository);

  it('says how to finish the setup while no user exists, and nothing of it after', async () => {
    const fresh = await service(0).info();
    expect(fresh).toMatchObject({ setup_done: false, next_step: { method: 'POST', path: '/api/setup' } });
    const done = await service(1).info();
    expect(done).toMatchObject({ setup_done: true, next_step: null });
    expect(done.links.openapi).toBe('/api/docs/openapi.json');
  });
});
