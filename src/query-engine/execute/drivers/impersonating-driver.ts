import { PreprocessError } from '../../preprocess/context';
import type { Engine, QueryOptions, SqlParam, WarehouseDriver } from './driver';

/** Engines whose driver runs a statement under QueryOptions.role. */
const ROLE_ENGINES: ReadonlySet<Engine> = new Set(['postgres', 'mysql']);

export const ENGINE_UNSUPPORTED = 'Connection impersonation is not supported on this database.';

/** One wrapper per driver and role: runs are shared by driver (shared-runs.ts), so callers of one role still share. */
const byDriver = new WeakMap<WarehouseDriver, Map<string, WarehouseDriver>>();

/**
 * The driver a caller's statements go through under connection impersonation: `role` null is the driver itself; a
 * role name, the driver with every statement run under that role; an error (a policy that cannot be applied), a
 * driver whose every statement fails with it, so the query fails rather than run as the connection's own role.
 */
export function impersonating(driver: WarehouseDriver, role: string | null | Error): WarehouseDriver {
  if (role === null) return driver;
  if (role instanceof Error) return withOptions(driver, () => Promise.reject(role));
  if (!ROLE_ENGINES.has(driver.engine)) return withOptions(driver, () => Promise.reject(new PreprocessError(ENGINE_UNSUPPORTED)));
  let roles = byDriver.get(driver);
  if (!roles) byDriver.set(driver, (roles = new Map()));
  let found = roles.get(role);
  if (!found) roles.set(role, (found = withOptions(driver, (opts) => Promise.resolve({ ...opts, role }))));
  return found;
}

function withOptions(driver: WarehouseDriver, options: (opts: QueryOptions | undefined) => Promise<QueryOptions>): WarehouseDriver {
  return {
    engine: driver.engine,
    testConnection: () => driver.testConnection(),
    describe: () => driver.describe(),
    query: async (sql: string, params?: readonly SqlParam[], opts?: QueryOptions) => driver.query(sql, params, await options(opts)),
    stream: async (sql: string, params?: readonly SqlParam[], opts?: QueryOptions) => driver.stream(sql, params, await options(opts)),
    poolInfo: () => driver.poolInfo(),
    close: () => driver.close(),
  };
}
