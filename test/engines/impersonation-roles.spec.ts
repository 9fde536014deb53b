import { randomBytes } from 'node:crypto';
import { createDriver, type Engine, type WarehouseDriver } from '../../src/query-engine/execute/drivers';
import type { ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { availableEngines, freshWarehouse, runAll, serverAdmin, type TestWarehouse } from '../support/warehouses';

/**
 * QueryOptions.role (connection impersonation): a statement runs under the role, and the pooled connection (one, so
 * the next statement is sure to get it) comes back with its own role. On MariaDB the connection's user has no
 * row privileges of its own, only the role granted: what it reads under the role is the role's privileges.
 */
describe.each(availableEngines(['postgres', 'mysql']))('%s statements under a role', (engine: Engine) => {
  const tag = randomBytes(3).toString('hex');
  const role = `imp_r_${tag}`;
  const login = `imp_u_${tag}`;
  const password = `Pw-${tag}-9`;
  const admin = serverAdmin(engine as 'postgres' | 'mysql');
  let wh: TestWarehouse;
  let driver: WarehouseDriver;
  const opts = { readOnly: true, timeoutMs: 5_000, maxRows: 100 };
  const currentRole = engine === 'postgres' ? 'SELECT current_user' : 'SELECT CURRENT_ROLE()';
  const rows = async (sql: string, extra: { role?: string } = {}) => (await driver.query(sql, [], { ...opts, ...extra })).rows;

  beforeAll(async () => {
    wh = await freshWarehouse(engine);
    const db = (wh.details as ServerDetails).dbname;
    await runAll(wh.driver({ writable: true }), [
      'CREATE TABLE pub (id INTEGER PRIMARY KEY)',
      'CREATE TABLE secret (id INTEGER PRIMARY KEY)',
      'INSERT INTO pub VALUES (1), (2)',
      'INSERT INTO secret VALUES (3)',
    ]);
    if (engine === 'postgres') {
      await admin(`CREATE ROLE ${role} NOLOGIN`);
      await runAll(wh.driver({ writable: true }), [`GRANT SELECT ON pub TO ${role}`]);
      driver = wh.driver({ maxPoolSize: 1 });
    } else {
      await admin(`CREATE ROLE ${role}`);
      await admin(`GRANT SELECT ON \`${db}\`.pub TO ${role}`);
      await admin(`CREATE USER '${login}'@'%' IDENTIFIED BY '${password}'`);
      await admin(`GRANT ${role} TO '${login}'@'%'`);
      // Some privilege on the database, none on its rows, lets the user connect to it.
      await admin(`GRANT SHOW VIEW ON \`${db}\`.* TO '${login}'@'%'`);
      driver = createDriver(engine, { ...(wh.details as ServerDetails), user: login, password }, { maxPoolSize: 1 });
    }
  });

  afterAll(async () => {
    await driver?.close();
    await wh?.drop();
    if (engine === 'mysql') await admin(`DROP USER IF EXISTS '${login}'@'%'`);
    await admin(`DROP ROLE ${engine === 'mysql' ? '' : 'IF EXISTS '}${role}`).catch(() => undefined);
  });

  it("reads with the role's privileges only, and gives the connection back with its own role", async () => {
    expect(await rows('SELECT id FROM pub ORDER BY id', { role })).toEqual([[1], [2]]);
    await expect(rows('SELECT id FROM secret', { role })).rejects.toThrow(/denied/i);
    expect(String((await rows(currentRole, { role }))[0][0])).toContain(role);
    const own = String((await rows(currentRole))[0][0] ?? '');
    expect(own).not.toContain(role);
    if (engine === 'mysql') await expect(rows('SELECT id FROM pub')).rejects.toThrow(/denied/i);
  });

  it('streams under the role too', async () => {
    const stream = await driver.stream('SELECT id FROM pub ORDER BY id', [], { ...opts, role });
    const got: unknown[][] = [];
    for await (const batch of stream.batches) got.push(...batch);
    await stream.close();
    expect(got).toEqual([[1], [2]]);
    expect(String((await rows(currentRole))[0][0] ?? '')).not.toContain(role);
  });

  it('fails a statement under a role that does not exist, and the connection stays usable', async () => {
    await expect(rows('SELECT id FROM pub', { role: `imp_none_${tag}` })).rejects.toThrow();
    expect(await rows('SELECT id FROM pub ORDER BY id', { role })).toEqual([[1], [2]]);
  });
});
