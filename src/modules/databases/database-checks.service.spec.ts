import type { AuthUser } from '../../common/auth/current-user';
import { SecretBox } from '../../common/crypto/secret-box';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { ConnectionError, DetailsError, QueryTimeoutError } from '../../query-engine/execute/drivers/errors';
import type { DatabaseAccessService, WarehouseConnections } from '../warehouse';
import { DatabaseChecksService } from './database-checks.service';
import type { DatabasesRepository } from './databases.repository';

/** DatabaseChecksService: how a failed connection is told, and to whom; the connections are mocked. */
describe('DatabaseChecksService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;

  function setup(failure?: unknown, db: unknown = { id: 2, engine: 'postgres', details: { host: 'db.internal' } }) {
    const connections = {
      validate: jest.fn((_e: string, d: unknown) => d),
      withTemporary: jest.fn(async () => {
        if (failure) throw failure;
      }),
    };
    const access = { assertCanRead: jest.fn().mockResolvedValue(undefined) };
    const service = new DatabaseChecksService(
      { findById: jest.fn().mockResolvedValue(db) } as unknown as DatabasesRepository,
      access as unknown as DatabaseAccessService,
      connections as unknown as WarehouseConnections,
      new SecretBox(),
    );
    return { service, access };
  }

  it('tells admins why a saved database does not answer, and others only that it does not', async () => {
    const refused = new ConnectionError('could not connect to db.internal:5432', 'host');
    await expect(setup().service.healthcheck(user, 2)).resolves.toEqual({ status: 'ok' });
    await expect(setup(refused).service.healthcheck(admin, 2)).resolves.toEqual({
      status: 'error',
      message: 'could not connect to db.internal:5432',
      errors: { host: 'could not connect to db.internal:5432' },
    });
    await expect(setup(refused).service.healthcheck(user, 2)).resolves.toEqual({
      status: 'error',
      message: 'Unable to connect to database.',
    });
  });

  it('checks the database exists and may be read before connecting', async () => {
    await expect(setup(undefined, null).service.healthcheck(admin, 2)).rejects.toBeInstanceOf(NotFoundError);
    const denied = setup();
    denied.access.assertCanRead.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.healthcheck(user, 2)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('validates details: the detail at fault when known, the message of other warehouse errors, and bugs thrown', async () => {
    await expect(setup().service.validate('postgres', { host: 'h' })).resolves.toEqual({ valid: true });
    await expect(setup(new DetailsError('port', 'port must be a number')).service.validate('postgres', {})).resolves.toEqual({
      valid: false,
      message: 'port must be a number',
      errors: { port: 'port must be a number' },
    });
    await expect(setup(new ConnectionError('refused')).service.validate('postgres', {})).resolves.toEqual({
      valid: false,
      message: 'refused',
    });
    const timeout = new QueryTimeoutError(1000);
    await expect(setup(timeout).service.validate('postgres', {})).resolves.toEqual({ valid: false, message: timeout.message });
    await expect(setup(new TypeError('bug')).service.validate('postgres', {})).rejects.toThrow(TypeError);
  });
});
