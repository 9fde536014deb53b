import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService, CollectionPlace } from '../collections';
import type { CardAccessService } from './card-access.service';
import { CardDashboardsService } from './card-dashboards.service';
import type { CardsRepository } from './cards.repository';

/** CardDashboardsService: the dashboards showing cards, as the caller may see and change them. */
describe('CardDashboardsService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const perms: Record<string, CollectionPerm | null> = { root: 'read', '1': 'write', '2': null };
  const showing = (card_id: number, id: number, collection_id: number | null) => ({
    card_id,
    id,
    name: `d${id}`,
    collection_id,
    coll_location: '/',
    coll_personal_owner_id: null,
  });

  function setup(rows: ReturnType<typeof showing>[]) {
    const cards = { dashboardsShowing: jest.fn(async (ids: number[]) => rows.filter((r) => ids.includes(r.card_id))) };
    const collections = {
      forCollections: jest.fn(
        async (_u: AuthUser, ps: CollectionPlace[]) => new Map(ps.filter((p) => perms[p.id]).map((p) => [p.id, perms[p.id]])),
      ),
      permission: jest.fn(async () => perms.root),
    };
    const service = new CardDashboardsService(
      cards as unknown as CardsRepository,
      { readable: jest.fn().mockResolvedValue({}) } as unknown as CardAccessService,
      collections as unknown as CollectionAccessService,
    );
    return { service, collections };
  }

  it("names each card's dashboards the caller may read, flags those they may not change, and hides the rest", async () => {
    const m = setup([showing(5, 40, 1), showing(5, 41, null), showing(5, 42, 2), showing(6, 43, 1)]);
    await expect(m.service.ofCards(user, [6, 5, 7])).resolves.toEqual([
      { card_id: 6, dashboards: [{ id: 43, name: 'd43' }] },
      {
        card_id: 5,
        dashboards: [{ id: 40, name: 'd40' }, { id: 41, name: 'd41', error: 'unwritable-dashboard' }, { error: 'unreadable-dashboard' }],
      },
      { card_id: 7, dashboards: [] },
    ]);
    expect(m.collections.permission).toHaveBeenCalledTimes(1);
  });

  it('refuses the list of one card unless the caller may change every dashboard it is on', async () => {
    await expect(setup([showing(5, 40, 1), showing(5, 41, null)]).service.ofCard(user, 5)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setup([showing(5, 40, 1)]).service.ofCard(user, 5)).resolves.toEqual([{ id: 40, name: 'd40' }]);
  });
});
