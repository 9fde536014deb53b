import type { AuthUser } from '../../common/auth/current-user';
import type { SharedGrant } from '../../common/auth/shared-grant';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { runPivot } from '../../query-engine/postprocess/pivot';
import type { DatabaseAccessService } from '../warehouse';
import { AD_HOC_MAX_ROWS, type DatasetService } from './dataset.service';
import { NATIVE_PIVOT, PIVOT_MAX_ROWS, PivotService } from './pivot.service';
import { LIMITED_DOWNLOAD_ROWS } from './query-authorization';
import type { QueryMetadataRepository } from './query-metadata.repository';

// The splitting itself has its own spec: here runPivot only hands each grouping's query to the service's runner.
jest.mock('../../query-engine/postprocess/pivot', () => ({
  ...jest.requireActual('../../query-engine/postprocess/pivot'),
  runPivot: jest.fn(),
}));
const pivoted = runPivot as jest.MockedFunction<typeof runPivot>;

/** PivotService: what it refuses, the row cap of the whole table, and what each grouping's run is given; dataset runs mocked. */
describe('PivotService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const shared: SharedGrant = { shared: { via: 'embed', model: 'card', id: 3 } };
  const query = (extra: Record<string, unknown> = {}, breakouts = 2) => ({
    database: 1,
    type: 'query',
    query: { 'source-table': 10, aggregation: [['count']], breakout: Array.from({ length: breakouts }, (_, i) => ['field', i + 1, null]) },
    ...extra,
  });
  const head = {
    status: 'completed',
    data: { rows: [], cols: [{ name: 'A' }, { name: 'B' }, { name: 'count' }], rows_truncated: 5 },
    row_count: 0,
  };

  function setup(engine = 'sqlite', download = 'full') {
    pivoted.mockReset();
    pivoted.mockImplementation(async (inner, request, run) => {
      await run(inner, { maxRows: request.maxRows, log: true });
      return { head, rows: [[1, 2, 0, 3]], truncated: false, queries: 1 } as never;
    });
    const dataset = { run: jest.fn().mockResolvedValue({ status: 'completed' }) };
    const metadataRepo = { connection: jest.fn().mockResolvedValue({ id: 1, engine }) };
    const access = {
      accessTo: jest.fn().mockResolvedValue({ data: 'unrestricted', native: 'write', download }),
      assertCanRead: jest.fn().mockResolvedValue(undefined),
    };
    const service = new PivotService(
      dataset as unknown as DatasetService,
      metadataRepo as unknown as QueryMetadataRepository,
      access as unknown as DatabaseAccessService,
    );
    return { service, dataset, metadataRepo, access };
  }
  const signal = new AbortController().signal;
  const capOf = () => pivoted.mock.calls[0][1].maxRows;

  it('refuses a native query in the failed shape, after the 404 and 403 of any query', async () => {
    const native = { database: 1, type: 'native', native: { query: 'select 1' } };
    await expect(setup().service.run(native, user, signal)).resolves.toMatchObject({
      status: 'failed',
      error: NATIVE_PIVOT,
      database_id: 1,
    });
    const gone = setup();
    gone.metadataRepo.connection.mockResolvedValue(null);
    await expect(gone.service.run(native, user, signal)).rejects.toBeInstanceOf(NotFoundError);
    const denied = setup();
    denied.access.assertCanRead.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.run(native, user, signal)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(denied.service.run(native, shared, signal)).resolves.toMatchObject({ error: NATIVE_PIVOT });
    expect(pivoted).not.toHaveBeenCalled();
  });

  it('refuses too many breakouts before anything runs', async () => {
    const m = setup();
    const e = await m.service.run(query({}, 9), user, signal).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe('A pivot table can have at most 8 breakouts; this query has 9.');
    expect(m.dataset.run).not.toHaveBeenCalled();
  });

  it('caps the whole table: the ad-hoc cap by default, the download cap at most, a limited download lower', async () => {
    const plain = setup();
    await plain.service.run(query(), user, signal);
    expect(capOf()).toBe(AD_HOC_MAX_ROWS);

    const asked = setup();
    await asked.service.run(query({ constraints: { 'max-results': 5_000_000 } }), user, signal);
    expect(capOf()).toBe(PIVOT_MAX_ROWS);

    const limited = setup('sqlite', 'limited');
    await limited.service.run(query({ constraints: { 'max-results': 500_000 } }), user, signal, 'csv-download');
    expect(capOf()).toBe(LIMITED_DOWNLOAD_ROWS);
    await expect(setup('sqlite', 'none').service.run(query(), user, signal, 'xlsx-download')).rejects.toBeInstanceOf(ForbiddenError);

    const embed = setup('sqlite', 'none');
    await embed.service.run(query({ constraints: { 'max-results': 500_000 } }), shared, signal, 'csv-download');
    expect(capOf()).toBe(500_000);
    expect(embed.access.accessTo).not.toHaveBeenCalled();
  });

  it('runs each grouping through the dataset service without the pivot keys, with GROUPING SETS where the engine has them', async () => {
    const m = setup('postgres');
    await m.service.run({ ...query(), pivot_rows: [0], 'visualization-settings': { x: 1 } }, user, signal, 'ad-hoc', 4, 9);
    expect(pivoted.mock.calls[0][1]).toMatchObject({ rows: [0], groupingSets: true });
    const [sent, who, , opts] = m.dataset.run.mock.calls[0];
    expect(sent).not.toHaveProperty('pivot_rows');
    expect(sent).not.toHaveProperty('visualization-settings');
    expect(sent.constraints).toEqual({ 'max-results': AD_HOC_MAX_ROWS });
    expect(who).toBe(user);
    expect(opts).toMatchObject({ log: true, context: 'ad-hoc', cardId: 4, dashboardId: 9 });

    const lite = setup('sqlite');
    await lite.service.run(query(), user, signal);
    expect(pivoted.mock.calls[0][1].groupingSets).toBe(false);
  });

  it('answers the pivot columns and says how many rows it held when truncated', async () => {
    const m = setup();
    pivoted.mockResolvedValue({ head, rows: [[1, 2, 0, 3]], truncated: true, queries: 3 } as never);
    const answer = (await m.service.run(query(), user, signal)) as {
      data: { cols: Array<{ name: string }>; rows_truncated?: number };
      row_count: number;
    };
    expect(answer.data.cols.map((c) => c.name)).toEqual(['A', 'B', 'pivot-grouping', 'count']);
    expect(answer.data.rows_truncated).toBe(AD_HOC_MAX_ROWS);
    expect(answer.row_count).toBe(1);

    pivoted.mockResolvedValue({ head, rows: [], truncated: false, queries: 1 } as never);
    expect(((await m.service.run(query(), user, signal)) as { data: object }).data).not.toHaveProperty('rows_truncated');
  });
});
