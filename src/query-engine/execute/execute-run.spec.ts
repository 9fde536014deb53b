import type { ContentResolver, MetadataProvider } from '../metadata';
import type { RowStream, WarehouseDriver } from './drivers/driver';
import { QueryError } from './drivers/errors';
import { rowStream } from './drivers/row-stream';
import { executeRun, type ExecutePolicy, type ExecuteRequest, runKey } from './execute-run';
import { QueryProcessor } from './query-processor';
import { SharedRuns } from './shared-runs';

const COLUMNS = [{ name: 'n', databaseType: 'integer', baseType: 'type/Integer' as const }];

/**
 * A driver spy: counts the statements it is asked to run, and answers each with `batches`; a statement waits for
 * open() when `held` (so that identical queries are in flight together), and fails when `failAt` says so.
 */
function spyDriver(batches: unknown[][][], opts: { held?: boolean; failAt?: 'open' | 'rows' } = {}) {
  const statements: string[] = [];
  let open: () => void = () => {};
  const opened = opts.held ? new Promise<void>((resolve) => (open = resolve)) : Promise.resolve();
  const driver = {
    engine: 'sqlite',
    stream: async (sql: string): Promise<RowStream> => {
      statements.push(sql);
      await opened;
      if (opts.failAt === 'open') throw new QueryError('no such table: nope');
      let i = 0;
      return rowStream(COLUMNS, {
        next: async () => {
          if (opts.failAt === 'rows' && i === 1) throw new QueryError('interrupted');
          return batches[i++] ?? null;
        },
        finish: async () => undefined,
      });
    },
  } as unknown as WarehouseDriver;
  return { driver, statements, open: () => open() };
}

const db = { id: 1, engine: 'sqlite' as const, timezone: null };

/** A slot policy that counts the slots held. */
function countedSlots() {
  const held = { now: 0, taken: 0 };
  const slot = async () => {
    held.now++;
    held.taken++;
    let given = false;
    return () => {
      if (!given) held.now--;
      given = true;
    };
  };
  return { held, slot };
}

const request = (driver: WarehouseDriver, sql = 'SELECT 1'): ExecuteRequest => ({
  db,
  driver,
  sql,
  params: [],
  options: { readOnly: true, maxRows: 2000, timeoutMs: 1000 },
});

const drain = async (stream: RowStream) => {
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) rows.push(...batch);
  return rows;
};

describe('executeRun: query slots', () => {
  it('holds the slot while the rows are read and gives it back at their end', async () => {
    const { held, slot } = countedSlots();
    const stream = await executeRun(request(spyDriver([[[1]], [[2]]]).driver), { slot });
    expect(held.now).toBe(1);
    expect(await drain(stream)).toEqual([[1], [2]]);
    expect(held.now).toBe(0);
  });

  it('gives the slot back when the statement fails, when the rows fail half-way, and when the rows are closed unread', async () => {
    const { held, slot } = countedSlots();
    await expect(executeRun(request(spyDriver([], { failAt: 'open' }).driver), { slot })).rejects.toBeInstanceOf(QueryError);
    expect(held).toEqual({ now: 0, taken: 1 });
    const failing = await executeRun(request(spyDriver([[[1]], [[2]]], { failAt: 'rows' }).driver), { slot });
    await expect(drain(failing)).rejects.toBeInstanceOf(QueryError);
    expect(held).toEqual({ now: 0, taken: 2 });
    const unread = await executeRun(request(spyDriver([[[1]]]).driver), { slot });
    await unread.close();
    expect(held).toEqual({ now: 0, taken: 3 });
  });

  it('takes no slot for a caller who joins a run in flight', async () => {
    const { held, slot } = countedSlots();
    const spy = spyDriver([[[1]]], { held: true });
    const policy: ExecutePolicy = { slot, sharing: { runs: new SharedRuns(), scope: async () => 'superuser', owner: 1 } };
    const streams = [1, 2, 3].map(() => executeRun(request(spy.driver), policy));
    await new Promise((resolve) => setImmediate(resolve));
    spy.open();
    const read = await Promise.all((await Promise.all(streams)).map(drain));
    expect(read).toEqual([[[1]], [[1]], [[1]]]);
    expect([spy.statements.length, held.taken, held.now]).toEqual([1, 1, 0]);
  });
});

describe('runKey', () => {
  it('tells apart the SQL, the values and their types, the row cap and the scope', () => {
    const base = request({} as WarehouseDriver);
    const keys = [
      runKey(base, 's'),
      runKey({ ...base, sql: 'SELECT 2' }, 's'),
      runKey({ ...base, params: [1] }, 's'),
      runKey({ ...base, params: ['1'] }, 's'),
      runKey({ ...base, params: [1n] }, 's'),
      runKey({ ...base, params: [new Date('2024-01-01T00:00:00Z')] }, 's'),
      runKey({ ...base, params: ['2024-01-01T00:00:00.000Z'] }, 's'),
      runKey({ ...base, options: { ...base.options, maxRows: 10 } }, 's'),
      runKey({ ...base, db: { ...db, id: 2 } }, 's'),
      runKey(base, 't'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(runKey({ ...base, params: [1] }, 's')).toBe(runKey({ ...base, params: [1] }, 's'));
  });
});

describe('the execute stage of the query processor', () => {
  const metadata: MetadataProvider = {
    database: async () => db,
    table: async () => null,
    field: async () => null,
    tableFields: async () => [],
  };
  const content: ContentResolver = {
    card: async () => null,
    segment: async () => null,
    metric: async () => null,
    snippet: async () => null,
  };
  const native = (sql: string) => ({ database: 1, type: 'native', native: { query: sql } });

  /** Runs `sql` for each scope at once on one driver, the statements held until every caller is in. */
  async function runAs(scopes: string[], sql = 'SELECT 7 AS n') {
    const spy = spyDriver([[[7]]], { held: true });
    const runs = new SharedRuns();
    const results = scopes.map(async (scope) => {
      const processor = new QueryProcessor({
        metadata,
        content,
        database: async () => ({ meta: db, driver: spy.driver }),
        sharing: { runs, scope: async () => scope, owner: 1 },
      });
      const planned = (await processor.plan(native(sql)))!;
      return processor.run(planned, { context: 'ad-hoc', defaultMaxRows: 2000, timeoutMs: 1000 });
    });
    while (runs.stats(spy.driver).readers < scopes.length) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    spy.open();
    return { results: await Promise.all(results), statements: spy.statements };
  }

  it('runs identical queries of one scope once on the database, each caller getting the rows', async () => {
    const { results, statements } = await runAs(['groups:1,2', 'groups:1,2', 'groups:1,2']);
    expect(statements).toEqual(['SELECT 7 AS n']);
    expect(results.map((r) => r.status === 'completed' && r.data.rows)).toEqual([[[7]], [[7]], [[7]]]);
  });

  it('never shares a run between callers of different scopes', async () => {
    const { results, statements } = await runAs(['superuser', 'groups:1', 'shared:public:card:4']);
    expect(statements).toHaveLength(3);
    expect(results.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
  });
});
