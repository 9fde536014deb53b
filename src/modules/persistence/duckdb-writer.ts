import { createDriver } from '../../query-engine/execute/drivers';
import type { FileDetails } from '../../query-engine/execute/drivers/details';
import type { WarehouseWriter } from './warehouse-writer';
import { WarehouseWriteError } from './warehouse-writer';

/**
 * A DuckDB file opened read-write for a build (one connection, so BEGIN and COMMIT go to the same one). The caller
 * first closes the server's read-only handle on the file (WarehouseConnections.evict): DuckDB lets one process open a
 * file read-write only when no other handle holds it. Queries reopen it read-only afterwards.
 */
export async function duckdbWriter(details: FileDetails): Promise<WarehouseWriter> {
  const driver = createDriver('duckdb', details, { writable: true, maxPoolSize: 1 });
  const run = async (sql: string, params: readonly (string | number | boolean | null)[] = []) => {
    try {
      await driver.query(sql, params);
    } catch (e) {
      throw new WarehouseWriteError((e as Error).message, undefined);
    }
  };
  return {
    run,
    transaction: async (statements) => {
      await run('BEGIN TRANSACTION');
      try {
        for (const s of statements) await run(s);
        await run('COMMIT');
      } catch (e) {
        await driver.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    },
    close: () => driver.close(),
  };
}
