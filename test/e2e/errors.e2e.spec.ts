import { startTestApp, TestApp } from '../support/test-app';

describe('error shapes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers an unknown /api route with 404 "API endpoint does not exist."', async () => {
    const res = await t.http().get('/api/no-such-thing').expect(404);
    expect(res.text).toBe('API endpoint does not exist.');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('answers other unknown paths with 404 "Not found."', async () => {
    const res = await t.http().get('/no-such-page').expect(404);
    expect(res.text).toBe('Not found.');
  });

  it('answers a malformed JSON body with 400 and no parser internals', async () => {
    const res = await t.http().post('/api/session').set('Content-Type', 'application/json').send('{"username": ').expect(400);
    expect(res.body).toEqual({ message: 'The request body could not be parsed.' });
  });

  it('answers a missing credential with 401 Unauthenticated as plain text', async () => {
    const res = await t.http().get('/api/setting').expect(401);
    expect(res.text).toBe('Unauthenticated');
  });

  it('reports each invalid parameter in the errors / specific-errors shape', async () => {
    const res = await t.http().post('/api/session').send({ username: '  ', password: 5 }).expect(400);
    expect(res.body.errors).toEqual({ username: 'value must be a non-blank string.', password: 'value must be a non-blank string.' });
    expect(res.body['specific-errors'].username[0]).toBe('value must be a non-blank string, received: "  "');
  });

  it('tags every response with a request id, keeping a sane one the client sent', async () => {
    const own = await t.http().get('/api/session/properties').set('X-Request-Id', 'abc-123');
    expect(own.headers['x-request-id']).toBe('abc-123');
    const hostile = await t.http().get('/api/session/properties').set('X-Request-Id', 'a b;<script>');
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
