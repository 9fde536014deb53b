import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { createDriver, validateDetails } from '../../src/query-engine/execute/drivers';

describe('SQLite describe', () => {
  it('leaves out a view whose table was dropped instead of failing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-describe-'));
    const file = path.join(dir, 'w.db');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE kept (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE gone (id INTEGER);' +
        ' CREATE VIEW broken AS SELECT id FROM gone; DROP TABLE gone;',
    );
    db.close();
    const driver = createDriver('sqlite', validateDetails('sqlite', { db: file }, { dataDir: dir }), {});
    try {
      const described = await driver.describe();
      expect(described.tables.map((t) => t.name)).toEqual(['kept']);
    } finally {
      await driver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
