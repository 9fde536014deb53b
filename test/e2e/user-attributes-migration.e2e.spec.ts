import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/common/database/data-source-options';
import { runMigrations } from '../../src/common/database/migration-runner';
import { MIGRATIONS } from '../../src/migrations';
import { UserAttributes1765584000000 } from '../../src/migrations/1765584000000-user-attributes';
import { APP_DB, freshAppDb, TestDb } from '../support/app-db';

const PLACES = APP_DB === 'postgres' ? '$1, $2, $3' : '?, ?, ?';

/** An app DB from before jwt_attributes: what sign-ins wrote to login_attributes becomes the provider's. */
describe(`user attributes migration (${APP_DB})`, () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshAppDb();
  });
  afterAll(() => db.drop());

  it("moves SSO users' login attributes to jwt_attributes and leaves other users' alone", async () => {
    const options = dataSourceOptions(loadConfig(db.env));
    const before = MIGRATIONS.filter((m) => m !== UserAttributes1765584000000);
    const old = await new DataSource({ ...options, migrations: before }).initialize();
    try {
      await runMigrations(old);
      const insert = (email: string, attrs: string | null, source: string | null) =>
        old.query(`INSERT INTO core_user (email, login_attributes, sso_source) VALUES (${PLACES})`, [email, attrs, source]);
      await insert('jwt@example.com', '{"region":"US"}', 'jwt');
      await insert('saml@example.com', '{"team":["a","b"]}', 'saml');
      await insert('local@example.com', '{"region":"EU"}', null);
      await insert('none@example.com', null, 'jwt');
    } finally {
      await old.destroy();
    }
    const now = await new DataSource(options).initialize();
    try {
      expect(await runMigrations(now)).toEqual(['UserAttributes1765584000000']);
      const rows = await now.query('SELECT email, login_attributes, jwt_attributes FROM core_user ORDER BY email');
      expect(rows).toEqual([
        { email: 'jwt@example.com', login_attributes: null, jwt_attributes: '{"region":"US"}' },
        { email: 'local@example.com', login_attributes: '{"region":"EU"}', jwt_attributes: null },
        { email: 'none@example.com', login_attributes: null, jwt_attributes: null },
        { email: 'saml@example.com', login_attributes: null, jwt_attributes: '{"team":["a","b"]}' },
      ]);
    } finally {
      await now.destroy();
    }
  });
});
