import { AppLogger } from '../../src/common/logging/app-logger';
import { makeCard, nativeQuery } from '../support/card-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { cardToken, embeddable, setEmbedding } from './embed-helpers';

/** An embed token in the path is a credential: whatever the path around it, the log shows `<token>` instead. */
describe('embed tokens in request paths stay out of the log', () => {
  let t: TestApp;
  let token: string;
  let logged: string[];
  let wh: E2eWarehouse;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    await setEmbedding(t, admin);
    wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ['CREATE TABLE t (n INTEGER)'] });
    const db = (
      await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Logs', details: wh.details }).expect(200)
    ).body.id;
    const card = await makeCard(t, admin, nativeQuery(db, 'SELECT 1 AS n'));
    await embeddable(t, admin, 'card', card.id, {});
    token = cardToken(card.id);
    // Every way a line reaches the log: the request line and the leveled ones.
    const logger = t.app.get(AppLogger);
    logged = [];
    for (const method of ['request', 'info', 'warning', 'error', 'debug', 'log', 'warn', 'fatal'] as const) {
      const original = logger[method].bind(logger) as (...args: unknown[]) => void;
      jest.spyOn(logger, method).mockImplementation((...args: unknown[]) => {
        logged.push(JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? `${v.message} ${v.stack}` : v)));
        original(...args);
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    await wh?.drop();
  });

  it.each([
    ['a page with a download suffix', (jwt: string) => `/embed/question/${jwt}.csv`],
    ['an xlsx suffix', (jwt: string) => `/embed/question/${jwt}.xlsx`],
    ['a json suffix on the API', (jwt: string) => `/api/embed/card/${jwt}.json`],
    ['a download through the API', (jwt: string) => `/api/embed/card/${jwt}/query/csv`],
    ['percent-encoded dots', (jwt: string) => `/api/embed/card/${jwt.replace(/\./g, '%2E')}/query`],
    ['text around it', (jwt: string) => `/embed/question/x-${jwt}-y.csv`],
  ])('%s', async (_name, path) => {
    logged.length = 0;
    await t.http().get(path(token));
    const [, payload, signature] = token.split('.');
    const requestLines = logged.filter((l) => l.includes('"duration_ms"'));
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toContain('<token>');
    for (const line of logged) {
      expect(line).not.toContain(payload);
      expect(line).not.toContain(signature);
    }
  });
});
