import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/common/database/data-source-options';
import { runMigrations } from '../../src/common/database/migration-runner';
import { MIGRATIONS } from '../../src/migrations';
import { APP_DB, freshAppDb, TestDb } from '../support/app-db';

/** Several instances starting at once on one app DB: one applies the migrations, the others find nothing to do. */
describe('migrations', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshAppDb();
  });
  afterAll(() => db.drop());

  it(`apply exactly once when four instances start together (${APP_DB})`, async () => {
    const config = loadConfig(db.env);
    const sources = await Promise.all([1, 2, 3, 4].map(() => new DataSource(dataSourceOptions(config)).initialize()));
    try {
      const applied = await Promise.all(sources.map((ds) => runMigrations(ds)));
      expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => new m().name).sort());
      const rows = await sources[0].query('SELECT name FROM migrations');
      expect(rows).toHaveLength(MIGRATIONS.length);
      const groups = await sources[0].query('SELECT id, name FROM permissions_group ORDER BY id');
      expect(groups).toEqual([
        { id: 1, name: 'All Users' },
        { id: 2, name: 'Administrators' },
      ]);
      // a restart finds nothing left to apply and loses nothing
      expect(await runMigrations(sources[1])).toEqual([]);
    } finally {
      await Promise.all(sources.map((ds) => ds.destroy()));
    }
  });
});
