import type { AuthUser } from '../../common/auth/current-user';
import { PUBLIC_SHARING_OFF } from '../../common/auth/public-sharing.guard';
import { ArchivedError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { SettingsService } from '../settings';
import { PublicLinkService } from './public-link.service';
import type { PublicLinksRepository } from './public-links.repository';

/** PublicLinkService: a link is made once, only while public sharing is on, never for archived objects. */
describe('PublicLinkService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;

  function setup(link: unknown, enabled = true) {
    const links = {
      link: jest.fn().mockResolvedValue(link),
      share: jest.fn(async (_m: string, _id: number, uuid: string) => uuid),
      unshare: jest.fn().mockResolvedValue(undefined),
    };
    const settings = { get: jest.fn().mockResolvedValue(enabled) };
    return { service: new PublicLinkService(links as unknown as PublicLinksRepository, settings as unknown as SettingsService), links };
  }

  it('makes a link once and then answers the same one', async () => {
    const fresh = setup({ archived: false, public_uuid: null });
    const { uuid } = await fresh.service.share(admin, 'card', 5);
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.links.share).toHaveBeenCalledWith('card', 5, uuid, 1);
    const existing = setup({ archived: false, public_uuid: 'u-1' });
    await expect(existing.service.share(admin, 'dashboard', 5)).resolves.toEqual({ uuid: 'u-1' });
    expect(existing.links.share).not.toHaveBeenCalled();
  });

  it('refuses while public sharing is off, for archived or missing objects, and unshares only a shared one', async () => {
    const off = await setup({ archived: false, public_uuid: null }, false)
      .service.share(admin, 'card', 5)
      .catch((x: unknown) => x);
    expect((off as MessageError).message).toBe(PUBLIC_SHARING_OFF);
    await expect(setup({ archived: true, public_uuid: null }).service.share(admin, 'card', 5)).rejects.toBeInstanceOf(ArchivedError);
    await expect(setup(null).service.share(admin, 'card', 5)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup({ archived: false, public_uuid: null }).service.unshare('card', 5)).rejects.toBeInstanceOf(NotFoundError);
    const shared = setup({ archived: false, public_uuid: 'u-1' });
    await shared.service.unshare('card', 5);
    expect(shared.links.unshare).toHaveBeenCalledWith('card', 5);
  });
});
