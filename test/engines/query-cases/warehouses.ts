import type { MetadataSnapshot, SqlCompiler } from '../../../src/query-engine/compile/contract';
import type { Engine, WarehouseDriver } from '../../../src/query-engine/execute/drivers';
import type { FileDetails, ServerDetails } from '../../../src/query-engine/execute/drivers/details';
import { writeSampleDatabase } from '../../../src/sample-data';
import { freshWarehouse, type TestWarehouse } from '../../support/warehouses';
import { caseCompiler } from './compiler';
import { readFingerprints, sampleSnapshot } from './metadata';

/** The Sample Database written into one engine, with what compiling and running a case on it needs. */
export interface SampleWarehouse {
  engine: Engine;
  wh: TestWarehouse;
  driver: WarehouseDriver;
  meta: MetadataSnapshot;
  compiler: SqlCompiler;
}

/** The Sample Database at `orders` orders on each engine, in the order of `engines`. Drop them with `wh.drop()`. */
export async function sampleWarehouses(engines: readonly Engine[], orders: number): Promise<SampleWarehouse[]> {
  const made = await Promise.all(
    engines.map(async (engine) => {
      const wh = await freshWarehouse(engine);
      const target =
        engine === 'sqlite' || engine === 'duckdb'
          ? { engine, file: (wh.details as FileDetails).db }
          : { engine, details: wh.details as ServerDetails };
      await writeSampleDatabase(target, { orders, replace: true });
      const driver = wh.driver();
      const described = await driver.describe();
      const schema = described.tables.find((t) => t.name === 'ORDERS')?.schema ?? null;
      const meta = sampleSnapshot(engine, described, await readFingerprints(driver, engine, schema));
      return { engine, wh, driver, meta, compiler: caseCompiler(engine) };
    }),
  );
  return made;
}
