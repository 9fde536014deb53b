import type { QueryOptions, WarehouseDriver } from '../../query-engine/execute/drivers/driver';
import type { WarehouseField } from '../../schema/field.entity';
import type { WarehouseTable } from '../../schema/table.entity';
import { fingerprintTable, readFieldValues, SYNC_STATEMENT_TIMEOUT_MS } from './analyze';

/** A driver that records the options of every query and answers one row of zeros. */
function recordingDriver(): { driver: WarehouseDriver; seen: QueryOptions[] } {
  const seen: QueryOptions[] = [];
  const driver = {
    engine: 'sqlite',
    query: async (_sql: string, _params: unknown[], opts: QueryOptions) => {
      seen.push(opts);
      return { columns: [], rows: [[0, 0, 0, 0]] };
    },
  } as unknown as WarehouseDriver;
  return { driver, seen };
}

const table = { id: 1, schema: null, name: 'people' } as WarehouseTable;
const field = { id: 2, table_id: 1, name: 'city', base_type: 'type/Text' } as WarehouseField;

describe('sync queries', () => {
  it('run read-only and under the sync statement timeout, so a huge or slow table cannot hold a sync for ever', async () => {
    const { driver, seen } = recordingDriver();
    await fingerprintTable(driver, table, [field]);
    await readFieldValues(driver, table, field);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((o) => o.readOnly === true && o.timeoutMs === SYNC_STATEMENT_TIMEOUT_MS)).toBe(true);
  });
});
