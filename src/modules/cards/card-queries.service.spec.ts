import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import type { CardRow } from '../../schema/card.rows';
import type { DatasetService } from '../dataset';
import type { CardAccessService } from './card-access.service';
import { CardQueriesService } from './card-queries.service';
import type { CardRunner } from './card-runner.service';

/**
 * CardQueriesService: a signed-in user's run of a saved question reads the card as the user may, then hands it to
 * CardRunner (mocked here; its parameters, defaults and cache rules are card-runner.service.spec.ts's).
 */
describe('CardQueriesService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const QUERY = { database: 1, type: 'native', native: { query: 'select {{x}}' } };
  const card = (over: Partial<CardRow> = {}) =>
    ({
      id: 9,
      name: 'Q',
      display: 'table',
      type: 'question',
      database_id: 1,
      cache_ttl: 30,
      visualization_settings: '{"table.pivot":false}',
      dataset_query: JSON.stringify(QUERY),
      parameters: JSON.stringify([
        { id: 'x', type: 'number/=', target: ['variable', ['template-tag', 'x']], default: 5, slug: 'x' },
        { id: 'y', type: 'category', target: ['variable', ['template-tag', 'y']] },
      ]),
      ...over,
    }) as CardRow;

  function setup(row: CardRow = card()) {
    const access = { readable: jest.fn().mockResolvedValue({ row }) };
    const dataset = {
      run: jest.fn().mockResolvedValue({ status: 'completed', data: { results_metadata: { columns: [{ name: 'x' }] } } }),
    };
    const runner = {
      stream: jest.fn().mockResolvedValue({ status: 'streaming' }),
      pivot: jest.fn().mockResolvedValue({ status: 'completed', pivoted: true }),
    };
    const service = new CardQueriesService(
      dataset as unknown as DatasetService,
      access as unknown as CardAccessService,
      runner as unknown as CardRunner,
    );
    return { service, access, dataset, runner };
  }
  const signal = new AbortController().signal;

  it('streams the card the caller may read, for that caller, with the options it is asked for; an unreadable card never runs', async () => {
    const m = setup();
    const opts = { dashboardId: 4, context: 'dashboard', ignoreCache: true, maxRows: 1_048_575 };
    await expect(m.service.run(user, 9, opts, signal)).resolves.toEqual({ status: 'streaming' });
    expect(m.access.readable).toHaveBeenCalledWith(user, 9);
    expect(m.runner.stream).toHaveBeenCalledWith(user, expect.objectContaining({ id: 9, cache_ttl: 30 }), opts, signal);
    expect(m.runner.pivot).not.toHaveBeenCalled();

    const denied = setup();
    denied.access.readable.mockRejectedValue(new ForbiddenError());
    await expect(denied.service.run(user, 9, {}, signal)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(denied.service.pivot(user, 9, {}, signal)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(denied.service.download(user, 9, { pivot: true }, signal)).rejects.toBeInstanceOf(ForbiddenError);
    expect(denied.runner.stream).not.toHaveBeenCalled();
    expect(denied.runner.pivot).not.toHaveBeenCalled();
  });

  it("downloads the pivot run only for a pivot table asked for it, with the card's name and settings", async () => {
    const plain = setup();
    const d = await plain.service.download(user, 9, { pivot: true, maxRows: 100 }, signal);
    expect(d).toEqual({
      name: 'Q',
      display: 'table',
      visualizationSettings: { 'table.pivot': false },
      pivot: false,
      answer: { status: 'streaming' },
    });
    expect(plain.runner.stream).toHaveBeenCalledWith(user, expect.objectContaining({ id: 9 }), { pivot: true, maxRows: 100 }, signal);
    expect(plain.runner.pivot).not.toHaveBeenCalled();

    const pivot = setup(card({ display: 'pivot' }));
    const opts = { pivot: true, maxRows: 100, context: 'csv-download' };
    await expect(pivot.service.download(user, 9, opts, signal)).resolves.toMatchObject({
      display: 'pivot',
      pivot: true,
      answer: { status: 'completed', pivoted: true },
    });
    expect(pivot.runner.pivot).toHaveBeenCalledWith(user, expect.objectContaining({ id: 9, display: 'pivot' }), opts, signal);
    expect(pivot.runner.stream).not.toHaveBeenCalled();

    // A pivot table downloaded as it shows unpivoted takes the plain run.
    const unpivoted = setup(card({ display: 'pivot' }));
    await expect(unpivoted.service.download(user, 9, { pivot: false }, signal)).resolves.toMatchObject({ pivot: false });
    expect(unpivoted.runner.stream).toHaveBeenCalledTimes(1);
    expect(unpivoted.runner.pivot).not.toHaveBeenCalled();
  });

  it("works out a query's columns from a one-row run, and none when the run fails", async () => {
    const m = setup();
    await expect(m.service.resultMetadata(user, QUERY)).resolves.toEqual([{ name: 'x' }]);
    expect(m.dataset.run.mock.calls[0][3]).toMatchObject({ log: false, defaultMaxRows: 1 });
    m.dataset.run.mockResolvedValue({ status: 'failed' });
    await expect(m.service.resultMetadata(user, QUERY)).resolves.toBeNull();
    m.dataset.run.mockRejectedValue(new ForbiddenError());
    await expect(m.service.resultMetadata(user, QUERY)).resolves.toBeNull();
  });
});
