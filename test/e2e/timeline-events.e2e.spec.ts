import { grant, makeCollection, makeGroup } from '../support/card-factories';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { expect400, expect401, expect403, expect404 } from '../support/expect-wire';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

const ICON_MSG = 'value must be one of: `star`, `cake`, `mail`, `warning`, `bell`, `cloud`, `balloons`.';

/** Timeline events over HTTP: GET/POST /api/timeline-event, GET/PUT/DELETE /api/timeline-event/:id. */
describe('timeline events', () => {
  let t: TestApp;
  let admin: string;
  let reader: MadeUser;
  let writer: MadeUser;
  let outsider: MadeUser;
  let shared: number;
  let secret: number;

  const http = () => t.http();
  const makeTimeline = async (body: Json = {}, key = admin): Promise<Json> =>
    (
      await http()
        .post('/api/timeline')
        .set(auth(key))
        .send({ name: `Timeline ${Math.random().toString(36).slice(2, 8)}`, ...body })
        .expect(200)
    ).body;
  const postEvent = (body: Json, key = admin) => http().post('/api/timeline-event').set(auth(key)).send(body);
  const makeEvent = async (timelineId: unknown, extra: Json = {}, key = admin): Promise<Json> => {
    const res = await postEvent(
      {
        name: `Event ${Math.random().toString(36).slice(2, 8)}`,
        timestamp: '2022-01-01',
        timezone: 'UTC',
        timeline_id: timelineId,
        ...extra,
      },
      key,
    );
    if (res.status !== 200) throw new Error(`event create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const ids = (xs: Json[]) => xs.map((x) => x.id);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    [reader, writer, outsider] = [await makeUserDirect(t), await makeUserDirect(t), await makeUserDirect(t)];
    shared = await makeCollection(t, 'Shared');
    secret = await makeCollection(t, 'Secret');
    await grant(t, await makeGroup(t, admin, reader.id), shared, 'read');
    await grant(t, await makeGroup(t, admin, writer.id), shared, 'write');
  });
  afterAll(() => t.close());

  it('creates an event and answers it with its creator; the timeline gives the icon unless one is sent', async () => {
    const me = (await http().get('/api/user/current').set(auth(admin)).expect(200)).body;
    const tl = await makeTimeline({ icon: 'warning' });
    const made = await postEvent({
      name: 'Launch',
      description: 'v1 is out',
      timestamp: '2022-03-15T08:30:00+02:00',
      time_matters: true,
      timezone: 'Europe/Paris',
      timeline_id: tl.id,
    }).expect(200);
    expect(made.body).toEqual({
      id: expect.any(Number),
      timeline_id: tl.id,
      name: 'Launch',
      description: 'v1 is out',
      timestamp: '2022-03-15T06:30:00.000Z',
      time_matters: true,
      timezone: 'Europe/Paris',
      icon: 'warning',
      archived: false,
      creator_id: me.id,
      creator: expect.objectContaining({ id: me.id, email: me.email, common_name: me.common_name }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await http().get(`/api/timeline-event/${made.body.id}`).set(auth(admin)).expect(200)).body).toEqual(made.body);

    const dated = await makeEvent(tl.id, { timestamp: '2021-12-31', icon: 'balloons', archived: true });
    expect(dated).toMatchObject({
      timestamp: '2021-12-31T00:00:00.000Z',
      time_matters: false,
      icon: 'balloons',
      archived: true,
      description: null,
    });
    expect((await makeEvent(tl.id, { timestamp: '2022-01-31T10:15' })).timestamp).toBe('2022-01-31T10:15:00.000Z');
  });

  it('answers every validation message of the event endpoints', async () => {
    const tl = await makeTimeline();
    const ok = { name: 'ok', timestamp: '2022-01-01', timezone: 'UTC', timeline_id: tl.id };
    const without = (key: string) => Object.fromEntries(Object.entries(ok).filter(([k]) => k !== key));
    expect400(await postEvent(without('name')), 'name', 'value must be a non-blank string.');
    expect400(await postEvent({ ...ok, name: ' ' }), 'name', 'value must be a non-blank string.');
    expect400(await postEvent({ ...ok, name: 'x'.repeat(256) }), 'name', 'value must be a string of at most 255 characters.');
    expect400(await postEvent(without('timestamp')), 'timestamp', 'value must be a valid date string.');
    expect400(await postEvent({ ...ok, timestamp: 'tomorrow' }), 'timestamp', 'value must be a valid date string.');
    expect400(await postEvent({ ...ok, timestamp: '2022-02-30' }), 'timestamp', 'value must be a valid date string.');
    expect400(await postEvent({ ...ok, timestamp: 1640995200000 }), 'timestamp', 'value must be a valid date string.');
    expect400(await postEvent(without('timezone')), 'timezone', 'value must be a string.');
    expect400(await postEvent({ ...ok, timezone: 3 }), 'timezone', 'value must be a string.');
    expect400(await postEvent(without('timeline_id')), 'timeline_id', 'value must be an integer greater than zero.');
    expect400(await postEvent({ ...ok, timeline_id: 0 }), 'timeline_id', 'value must be an integer greater than zero.');
    expect400(await postEvent({ ...ok, timeline_id: '1' }), 'timeline_id', 'value must be an integer greater than zero.');
    expect400(await postEvent({ ...ok, description: false }), 'description', 'value must be a string.');
    expect400(await postEvent({ ...ok, time_matters: 'yes' }), 'time_matters', 'value must be a boolean.');
    expect400(await postEvent({ ...ok, icon: 'rocket' }), 'icon', ICON_MSG);
    expect400(await postEvent({ ...ok, archived: 0 }), 'archived', 'value must be a boolean.');

    const e = await makeEvent(tl.id);
    const put = (body: Json) => http().put(`/api/timeline-event/${e.id}`).set(auth(admin)).send(body);
    expect400(await put({ name: '' }), 'name', 'value must be a non-blank string.');
    expect400(await put({ description: 1 }), 'description', 'value must be a string.');
    expect400(await put({ timestamp: '01/02/2022' }), 'timestamp', 'value must be a valid date string.');
    expect400(await put({ time_matters: 'no' }), 'time_matters', 'value must be a boolean.');
    expect400(await put({ timezone: {} }), 'timezone', 'value must be a string.');
    expect400(await put({ icon: 'sun' }), 'icon', ICON_MSG);
    expect400(await put({ timeline_id: -1 }), 'timeline_id', 'value must be an integer greater than zero.');
    expect400(await put({ archived: 'true' }), 'archived', 'value must be a boolean.');

    const list = (q: string) => http().get(`/api/timeline-event?${q}`).set(auth(admin));
    expect400(await list('timeline_id=x'), 'timeline_id', 'value must be an integer greater than zero.');
    expect400(await list('timeline_id=0'), 'timeline_id', 'value must be an integer greater than zero.');
    expect400(await list('archived=yes'), 'archived', 'value must be a valid boolean string.');
    expect400(await list('start=later'), 'start', 'value must be a valid date string.');
    expect400(await list('end=2022-01-32'), 'end', 'value must be a valid date string.');

    for (const path of ['/api/timeline-event/abc', '/api/timeline-event/0']) {
      expect400(await http().get(path).set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(await http().put(path).set(auth(admin)).send({}), 'id', 'value must be an integer greater than zero.');
      expect400(await http().delete(path).set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    }
  });

  it('answers 404 for a missing event or timeline, and 401 without a session', async () => {
    const missing = await postEvent({ name: 'x', timestamp: '2022-01-01', timezone: 'UTC', timeline_id: 999999 });
    expect([missing.status, missing.body]).toEqual([404, { message: 'Timeline with id 999999 not found' }]);
    expect404(await http().get('/api/timeline-event/999999').set(auth(admin)));
    expect404(await http().put('/api/timeline-event/999999').set(auth(admin)).send({ name: 'x' }));
    expect404(await http().delete('/api/timeline-event/999999').set(auth(admin)));
    expect404(await http().get('/api/timeline-event?timeline_id=999999').set(auth(admin)));
    const e = await makeEvent((await makeTimeline()).id);
    const moved = await http().put(`/api/timeline-event/${e.id}`).set(auth(admin)).send({ timeline_id: 999999 });
    expect([moved.status, moved.body]).toEqual([404, { message: 'Timeline with id 999999 not found' }]);
    expect401(await http().get('/api/timeline-event'));
    expect401(await http().post('/api/timeline-event').send({}));
    expect401(await http().get(`/api/timeline-event/${e.id}`));
    expect401(await http().put(`/api/timeline-event/${e.id}`).send({ name: 'x' }));
    expect401(await http().delete(`/api/timeline-event/${e.id}`));
  });

  it('updates what is sent, moves an event to another timeline, and deletes it', async () => {
    const from = await makeTimeline({ name: 'From' });
    const to = await makeTimeline({ name: 'To' });
    const e = await makeEvent(from.id, { name: 'Before', description: 'words', icon: 'mail', timezone: 'UTC' });
    const put = async (body: Json) =>
      (await http().put(`/api/timeline-event/${e.id}`).set(auth(admin)).send(body).expect(200)).body as Json;

    expect(
      await put({
        name: 'After',
        timestamp: '2023-05-05T05:05:05-01:00',
        time_matters: true,
        timezone: 'America/New_York',
        icon: 'cloud',
        archived: true,
      }),
    ).toMatchObject({
      id: e.id,
      name: 'After',
      timestamp: '2023-05-05T06:05:05.000Z',
      time_matters: true,
      timezone: 'America/New_York',
      icon: 'cloud',
      archived: true,
      description: 'words',
    });
    // null clears the description; on the other keys it changes nothing.
    expect(
      await put({ name: null, timestamp: null, time_matters: null, timezone: null, icon: null, archived: null, timeline_id: null }),
    ).toMatchObject({
      name: 'After',
      timestamp: '2023-05-05T06:05:05.000Z',
      time_matters: true,
      timezone: 'America/New_York',
      icon: 'cloud',
      archived: true,
      timeline_id: from.id,
      description: 'words',
    });
    expect(await put({ description: null, archived: false })).toMatchObject({ description: null, archived: false });
    // The whole answer sent back is an ordinary edit.
    expect(await put({ ...(await put({})), name: 'Whole' })).toMatchObject({ name: 'Whole', timeline_id: from.id });

    expect(await put({ timeline_id: to.id })).toMatchObject({ timeline_id: to.id });
    const events = async (id: unknown) =>
      ((await http().get(`/api/timeline/${id}?include=events`).set(auth(admin)).expect(200)).body.events as Json[]).map((x) => x.id);
    expect(await events(from.id)).toEqual([]);
    expect(await events(to.id)).toEqual([e.id]);

    const res = await http().delete(`/api/timeline-event/${e.id}`).set(auth(admin)).expect(204);
    expect(res.text).toBe('');
    expect404(await http().get(`/api/timeline-event/${e.id}`).set(auth(admin)));
    expect404(await http().delete(`/api/timeline-event/${e.id}`).set(auth(admin)));
    expect(await events(to.id)).toEqual([]);
    await http().get(`/api/timeline/${to.id}`).set(auth(admin)).expect(200);
  });

  it('lists the events of readable timelines, oldest first: unarchived, or archived only, one timeline, within bounds', async () => {
    const tl = await makeTimeline({ name: 'Listed', collection_id: shared });
    const other = await makeTimeline({ name: 'Other' });
    const late = await makeEvent(tl.id, { timestamp: '2024-01-01' });
    const early = await makeEvent(tl.id, { timestamp: '2020-01-01' });
    const archived = await makeEvent(tl.id, { timestamp: '2022-01-01', archived: true });
    const elsewhere = await makeEvent(other.id, { timestamp: '2021-01-01' });
    const list = async (q: string, key = admin) => ids((await http().get(`/api/timeline-event?${q}`).set(auth(key)).expect(200)).body);

    expect(await list(`timeline_id=${tl.id}`)).toEqual([early.id, late.id]);
    expect(await list(`timeline_id=${tl.id}&archived=true`)).toEqual([archived.id]);
    expect(await list(`timeline_id=${tl.id}&archived=false&start=2021-01-01`)).toEqual([late.id]);
    expect(await list(`timeline_id=${tl.id}&end=2024-01-01`)).toEqual([early.id, late.id]);
    expect(await list(`timeline_id=${tl.id}&end=2023-12-31T23:59:59Z`)).toEqual([early.id]);
    const all = await list('');
    expect(all).toEqual(expect.arrayContaining([early.id, late.id, elsewhere.id]));
    expect(all).not.toContain(archived.id);
    expect(all.indexOf(early.id)).toBeLessThan(all.indexOf(elsewhere.id));
    expect(all.indexOf(elsewhere.id)).toBeLessThan(all.indexOf(late.id));
    expect(await list('start=2020-06-01&end=2023-01-01')).toEqual(expect.arrayContaining([elsewhere.id]));
    expect(await list('start=2020-06-01&end=2023-01-01')).not.toContain(early.id);

    // The reader sees the shared timeline's events (and the Root's); the outsider only the Root's.
    expect(await list('', reader.session)).toEqual(expect.arrayContaining([early.id, late.id, elsewhere.id]));
    const outside = await list('', outsider.session);
    expect(outside).toContain(elsewhere.id);
    expect(outside).not.toContain(early.id);
    expect403(await http().get(`/api/timeline-event?timeline_id=${tl.id}`).set(auth(outsider.session)));
  });

  it("needs read access to the timeline's collection to read an event, write access to change one", async () => {
    const tl = await makeTimeline({ name: 'Guarded', collection_id: shared });
    const hidden = await makeTimeline({ name: 'Hidden', collection_id: secret });
    const e = await makeEvent(tl.id);
    const h = await makeEvent(hidden.id);

    await http().get(`/api/timeline-event/${e.id}`).set(auth(reader.session)).expect(200);
    expect403(await http().get(`/api/timeline-event/${h.id}`).set(auth(reader.session)));
    expect403(await http().get(`/api/timeline-event/${e.id}`).set(auth(outsider.session)));
    for (const who of [reader, outsider]) {
      expect403(await postEvent({ name: 'x', timestamp: '2022-01-01', timezone: 'UTC', timeline_id: tl.id }, who.session));
      expect403(await http().put(`/api/timeline-event/${e.id}`).set(auth(who.session)).send({ name: 'x' }));
      expect403(await http().delete(`/api/timeline-event/${e.id}`).set(auth(who.session)));
    }

    // The writer writes in the shared collection, but cannot move an event into a timeline it may not write.
    const own = await makeEvent(tl.id, { name: 'Writer made' }, writer.session);
    expect(own.creator_id).toBe(writer.id);
    await http().put(`/api/timeline-event/${e.id}`).set(auth(writer.session)).send({ name: 'Renamed' }).expect(200);
    expect403(await http().put(`/api/timeline-event/${e.id}`).set(auth(writer.session)).send({ timeline_id: hidden.id }));
    expect403(await postEvent({ name: 'x', timestamp: '2022-01-01', timezone: 'UTC', timeline_id: hidden.id }, writer.session));
    expect403(await http().put(`/api/timeline-event/${h.id}`).set(auth(writer.session)).send({ name: 'x' }));
    await http().delete(`/api/timeline-event/${own.id}`).set(auth(writer.session)).expect(204);
    expect((await http().get(`/api/timeline-event/${e.id}`).set(auth(admin)).expect(200)).body).toMatchObject({
      name: 'Renamed',
      timeline_id: tl.id,
    });
  });
});
