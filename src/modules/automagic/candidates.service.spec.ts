import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { DatabaseAccessService } from '../warehouse';
import type { AutomagicRepository } from './automagic.repository';
import { CandidatesService } from './candidates.service';
import { rankTable } from './interestingness';

jest.mock('./interestingness', () => ({ rankTable: jest.fn() }));
const ranked = rankTable as jest.MockedFunction<typeof rankTable>;

/** CandidatesService: which tables are offered for an x-ray and in which order; scores and the repository mocked. */
describe('CandidatesService', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const table = (id: number, schema: string | null, display_name: string, visibility_type: string | null = null) => ({
    id,
    db_id: 1,
    schema,
    name: display_name.toLowerCase(),
    display_name,
    description: null,
    entity_type: null,
    visibility_type,
    estimated_row_count: 0,
  });
  const scores: Record<number, number> = { 1: 10, 2: 30, 3: 30, 4: 5, 5: 99 };

  function setup(exists = true) {
    ranked.mockImplementation((t, _fields, linksIn) => ({
      score: scores[(t as unknown as { id: number }).id] + linksIn * 100,
      template: 'GenericTable',
    }));
    const repo = {
      databaseExists: jest.fn().mockResolvedValue(exists),
      databaseTables: jest
        .fn()
        .mockResolvedValue([
          table(1, 'public', 'Orders'),
          table(2, 'public', 'People'),
          table(3, 'public', 'Accounts'),
          table(4, 'audit', 'Events'),
          table(5, 'public', 'Secrets', 'hidden'),
        ]),
      fieldsOf: jest.fn().mockResolvedValue([]),
    };
    const access = {
      assertCanRead: jest.fn().mockResolvedValue(undefined),
      viewableTables: jest.fn(async (_u: unknown, ts: unknown[]) => ts),
    };
    const service = new CandidatesService(repo as unknown as AutomagicRepository, access as unknown as DatabaseAccessService);
    return { service, repo, access };
  }

  it('checks the database exists (404) and may be read (403)', async () => {
    await expect(setup(false).service.candidates(caller, 1)).rejects.toBeInstanceOf(NotFoundError);
    const denied = setup();
    denied.access.assertCanRead.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.candidates(caller, 1)).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.repo.databaseTables).not.toHaveBeenCalled();
  });

  it('groups visible tables by schema, best first, ties by name, and orders the schemas by their best table', async () => {
    const out = await setup().service.candidates(caller, 1);
    expect(out.map((s) => [s.schema, s.order, s.score])).toEqual([
      ['public', 0, 30],
      ['audit', 1, 5],
    ]);
    expect(out[0].tables.map((t) => t.table.id)).toEqual([3, 2, 1]);
    expect(out[0].tables[0]).toMatchObject({
      url: '/auto/dashboard/table/3',
      title: 'Accounts',
      description: 'A look at Accounts',
      rule: 'table/GenericTable',
    });
  });

  it('counts the foreign keys pointing at a table from other tables', async () => {
    const m = setup();
    m.repo.fieldsOf.mockResolvedValue([
      { id: 10, table_id: 1, fk_target_field_id: null },
      { id: 40, table_id: 4, fk_target_field_id: 10 },
      { id: 11, table_id: 1, fk_target_field_id: 10 },
    ]);
    const out = await m.service.candidates(caller, 1);
    expect(out.find((s) => s.schema === 'public')!.tables[0]).toMatchObject({ table: { id: 1 }, score: 110 });
  });
});
