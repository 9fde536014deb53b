import { NotFoundError } from '../../common/errors/api-errors';
import type { User } from '../../schema/user.entity';
import { UserAttributesService } from './user-attributes.service';
import type { UsersRepository } from './users.repository';
import type { UsersService } from './users.service';

function setup(maps: string[], user: Partial<User> | null = { id: 4, is_active: true, type: 'personal' }) {
  const users = {
    attributeMaps: jest.fn(async () => maps),
    transaction: jest.fn(async (work: (tx: unknown) => Promise<unknown>) => work('tx')),
    findById: jest.fn(async () => user),
    update: jest.fn(async () => undefined),
  };
  const usersService = { get: jest.fn(async () => user), view: jest.fn(async () => ({ id: 4 })) };
  const service = new UserAttributesService(users as unknown as UsersRepository, usersService as unknown as UsersService);
  return { service, users };
}

describe('UserAttributesService', () => {
  it('answers each key once, sorted, skipping stored text that is no map', async () => {
    const { service } = setup(['{"region":"EU","level":3}', '{"team":["a"],"region":"US"}', 'not json', '["x"]', '{}']);
    await expect(service.knownKeys()).resolves.toEqual(['level', 'region', 'team']);
  });

  it("replaces the admin's map of an active person, and finds no one else", async () => {
    const { service, users } = setup([]);
    await service.setLoginAttributes(4, { region: 'EU' });
    expect(users.update).toHaveBeenCalledWith(4, { login_attributes: { region: 'EU' } }, 'tx');
    for (const missing of [null, { id: 4, is_active: false, type: 'personal' }, { id: 4, is_active: true, type: 'api-key' }]) {
      const other = setup([], missing as Partial<User> | null);
      await expect(other.service.setLoginAttributes(4, null)).rejects.toBeInstanceOf(NotFoundError);
      expect(other.users.update).not.toHaveBeenCalled();
    }
  });
});
