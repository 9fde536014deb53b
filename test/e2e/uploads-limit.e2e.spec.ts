import type { TestApp } from '../support/test-app';
import { auth, setupAdmin } from '../support/factories';

/**
 * The upload size limit (UPLOAD_MAX_MB, read when the uploads module loads: set here before the app is imported).
 * A file over it is cut off while it streams in and answered 413 in the API's error shape, never a 500.
 */
process.env.UPLOAD_MAX_MB = '1';

describe('the CSV upload size limit', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    const { startTestApp } = await import('../support/test-app');
    t = await startTestApp();
    admin = await setupAdmin(t);
  });
  afterAll(async () => {
    delete process.env.UPLOAD_MAX_MB;
    await t?.close();
  });

  it('answers 413 with a message for a file over UPLOAD_MAX_MB, and takes one under it as far as the settings check', async () => {
    const big = Buffer.from(`x,y\n${'1,2\n'.repeat(300_000)}`); // 1.2 MB
    const res = await t.http().post('/api/card/from-csv').set(auth(admin)).field('collection_id', 'root').attach('file', big, 'big.csv');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The request body is too large.' });
    // Under the limit the request goes on to the handler, which asks for an uploads database first.
    const small = await t
      .http()
      .post('/api/card/from-csv')
      .set(auth(admin))
      .field('collection_id', 'root')
      .attach('file', Buffer.from('a,b\n1,2\n'), 'small.csv');
    expect(small.status).toBe(400);
    expect(small.body).toEqual({ message: 'The uploads database is not configured.' });
  });
});
