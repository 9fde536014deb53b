import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { CardAccessService } from '../cards';
import { DEFAULT_REFRESH_SCHEDULE, parseRefreshSchedule, type SettingsService } from '../settings';
import { PersistenceAdminService, SCHEDULE_SETTING } from './persistence-admin.service';
import type { PersistenceRepository } from './persistence.repository';
import { ENABLED_SETTING, type PersistenceService } from './persistence.service';

/** PersistenceAdminService: listings, the instance switch and the refresh schedule; repository and settings mocked. */
describe('PersistenceAdminService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (id: number, database_id: number, state: string) => ({
    id,
    database_id,
    card_id: id * 10,
    state,
    active: state === 'persisted',
    definition: null,
    question_slug: 'q',
    schema_name: 's',
    table_name: 't',
    query_hash: 'h',
    error: null,
    creator_id: 1,
  });
  const rows = [row(1, 3, 'persisted'), row(2, 3, 'off'), row(3, 4, 'error')];

  function setup(schedule: string | null = null) {
    const repo = {
      list: jest.fn(async (o?: { ids: number[] }) => (o ? rows.filter((r) => o.ids.includes(r.id)) : rows)),
      byCard: jest.fn(async (cardId: number) => rows.find((r) => r.card_id === cardId) ?? null),
      byId: jest.fn(async (id: number) => rows.find((r) => r.id === id) ?? null),
    };
    const persistence = { disableDatabase: jest.fn().mockResolvedValue(undefined) };
    const settings = { setMany: jest.fn().mockResolvedValue(undefined), get: jest.fn().mockResolvedValue(schedule) };
    const cards = { readable: jest.fn().mockResolvedValue({}) };
    const service = new PersistenceAdminService(
      repo as unknown as PersistenceRepository,
      persistence as unknown as PersistenceService,
      settings as unknown as SettingsService,
      cards as unknown as CardAccessService,
    );
    return { service, persistence, settings, cards };
  }

  it('pages the listing and gives a next refresh time only to models that are on', async () => {
    const out = await setup('2').service.list(2, 1);
    expect(out).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(out.data.map((d) => [d.id, d['next-refresh-time'] === null])).toEqual([
      [2, true],
      [3, false],
    ]);
  });

  it('turning persistence off drops the tables of every database that has some; on only flips the switch', async () => {
    const off = setup();
    await off.service.enable(false);
    expect(off.settings.setMany).toHaveBeenCalledWith({ [ENABLED_SETTING]: false });
    expect(off.persistence.disableDatabase.mock.calls.map((c) => c[0])).toEqual([3, 4]);
    const on = setup();
    await on.service.enable(true);
    expect(on.persistence.disableDatabase).not.toHaveBeenCalled();
  });

  it('stores a refresh schedule only when it parses, and falls back to the default for a broken stored one', async () => {
    const m = setup('not a schedule');
    const e = await m.service.setSchedule('99').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect(Object.keys((e as ValidationError).errors)).toEqual(['cron']);
    await m.service.setSchedule('6');
    expect(m.settings.setMany).toHaveBeenCalledWith({ [SCHEDULE_SETTING]: '6' });
    await expect(m.service.schedule()).resolves.toEqual(parseRefreshSchedule(DEFAULT_REFRESH_SCHEDULE));
    await expect(setup('2').service.schedule()).resolves.toEqual(parseRefreshSchedule('2'));
  });

  it("shows one model's state to callers who may read its card, 404 when it is not persisted", async () => {
    const m = setup();
    await expect(m.service.forCard(user, 10)).resolves.toMatchObject({ id: 1, card_id: 10 });
    await expect(m.service.forCard(user, 99)).rejects.toBeInstanceOf(NotFoundError);
    m.cards.readable.mockRejectedValue(new ForbiddenError());
    await expect(m.service.byId(user, 1)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.byId(user, 9)).rejects.toBeInstanceOf(NotFoundError);
  });
});
