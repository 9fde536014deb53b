import { DataSource } from 'typeorm';
import { grant, makeCard, makeCollection, makeGroup, tableQuery } from '../support/card-factories';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { expect400, expect401, expect403, expect404 } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';
import type { TestApp } from '../support/test-app';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

/**
 * Timelines over HTTP: the five /api/timeline endpoints, the collection and card listings, archiving (which carries the
 * events along), deleting (which takes them along), event bounds, and collection permissions.
 */
describe('timelines', () => {
  let s: SampleApp;
  let t: TestApp;
  let admin: string;
  let reader: MadeUser;
  let writer: MadeUser;
  let outsider: MadeUser;
  let shared: number;
  let secret: number;

  const http = () => t.http();
  const postTimeline = (body: Json, key = admin) => http().post('/api/timeline').set(auth(key)).send(body);
  const makeTimeline = async (body: Json, key = admin): Promise<Json> => {
    const res = await postTimeline({ name: `Timeline ${Math.random().toString(36).slice(2, 8)}`, ...body }, key);
    if (res.status !== 200) throw new Error(`timeline create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const makeEvent = async (timelineId: unknown, timestamp: string, extra: Json = {}): Promise<Json> =>
    (
      await http()
        .post('/api/timeline-event')
        .set(auth(admin))
        .send({ name: `Event ${timestamp}`, timestamp, timezone: 'UTC', timeline_id: timelineId, ...extra })
        .expect(200)
    ).body;
  const names = (xs: Json[]) => xs.map((x) => x.name);
  const eventNames = (timeline: Json) => names(timeline.events as Json[]);

  beforeAll(async () => {
    s = await startSampleApp();
    ({ t, admin } = s);
    [reader, writer, outsider] = [await makeUserDirect(t), await makeUserDirect(t), await makeUserDirect(t)];
    // Collections made in the app DB copy no grants: only the groups granted below see them.
    shared = await makeCollection(t, 'Shared');
    secret = await makeCollection(t, 'Secret');
    await grant(t, await makeGroup(t, admin, reader.id), shared, 'read');
    await grant(t, await makeGroup(t, admin, writer.id), shared, 'write');
  });
  afterAll(() => t.close());

  it('creates a timeline and answers it as Metabase does, with its creator and collection', async () => {
    const me = (await http().get('/api/user/current').set(auth(admin)).expect(200)).body;
    const made = await postTimeline({
      name: 'Releases',
      description: 'Product releases',
      icon: 'cake',
      collection_id: shared,
      default: true,
    }).expect(200);
    expect(made.body).toMatchObject({
      name: 'Releases',
      description: 'Product releases',
      icon: 'cake',
      default: true,
      archived: false,
      collection_id: shared,
      creator_id: me.id,
      creator: { id: me.id, email: me.email, common_name: me.common_name, is_superuser: true },
      collection: { id: shared, name: 'Shared', location: '/', can_write: true },
    });
    expect(made.body.entity_id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(made.body).not.toHaveProperty('events');
    expect(new Date(made.body.created_at).getTime()).not.toBeNaN();

    const got = await http().get(`/api/timeline/${made.body.id}`).set(auth(admin)).expect(200);
    expect(got.body).toEqual(made.body);

    // Without an icon: the star; both releases' icons are accepted. In the Root: the Root collection.
    const plain = await makeTimeline({ name: 'Plain' });
    expect(plain).toMatchObject({
      icon: 'star',
      default: false,
      description: null,
      collection_id: null,
      collection: { id: 'root', name: 'Our analytics', can_write: true },
    });
    for (const icon of ['star', 'cake', 'mail', 'warning', 'bell', 'cloud', 'balloons'])
      expect((await makeTimeline({ icon })).icon).toBe(icon);
    // An archived timeline may be created as such.
    expect((await makeTimeline({ archived: true })).archived).toBe(true);
  });

  it('answers every validation message of the timeline endpoints', async () => {
    const tl = await makeTimeline({});
    const post = (body: Json) => postTimeline({ name: 'ok', ...body });
    expect400(await postTimeline({}), 'name', 'value must be a non-blank string.');
    expect400(await post({ name: '  ' }), 'name', 'value must be a non-blank string.');
    expect400(await post({ name: 7 }), 'name', 'value must be a non-blank string.');
    expect400(await post({ name: 'x'.repeat(256) }), 'name', 'value must be a string of at most 255 characters.');
    expect400(await post({ description: 5 }), 'description', 'value must be a string.');
    expect400(await post({ default: 'yes' }), 'default', 'value must be a boolean.');
    expect400(
      await post({ icon: 'rocket' }),
      'icon',
      'value must be one of: `star`, `cake`, `mail`, `warning`, `bell`, `cloud`, `balloons`.',
    );
    expect400(await post({ collection_id: 0 }), 'collection_id', 'value must be an integer greater than zero.');
    expect400(await post({ collection_id: 'x' }), 'collection_id', 'value must be an integer greater than zero.');
    expect400(await post({ archived: 'true' }), 'archived', 'value must be a boolean.');

    const put = (body: Json) => http().put(`/api/timeline/${tl.id}`).set(auth(admin)).send(body);
    expect400(await put({ name: '' }), 'name', 'value must be a non-blank string.');
    expect400(await put({ description: [] }), 'description', 'value must be a string.');
    expect400(await put({ default: 1 }), 'default', 'value must be a boolean.');
    expect400(await put({ icon: 'sun' }), 'icon', 'value must be one of: `star`, `cake`, `mail`, `warning`, `bell`, `cloud`, `balloons`.');
    expect400(await put({ collection_id: -3 }), 'collection_id', 'value must be an integer greater than zero.');
    expect400(await put({ archived: 'no' }), 'archived', 'value must be a boolean.');

    const get = (q: string) => http().get(`/api/timeline/${tl.id}?${q}`).set(auth(admin));
    expect400(await get('include=cards'), 'include', 'value must be one of: `events`.');
    expect400(await get('archived=yes'), 'archived', 'value must be a valid boolean string.');
    expect400(await get('start=yesterday'), 'start', 'value must be a valid date string.');
    expect400(await get('end=2022-13-01'), 'end', 'value must be a valid date string.');
    expect400(await http().get('/api/timeline?include=all').set(auth(admin)), 'include', 'value must be one of: `events`.');
    expect400(await http().get('/api/timeline?archived=1').set(auth(admin)), 'archived', 'value must be a valid boolean string.');

    for (const path of ['/api/timeline/abc', '/api/timeline/0']) {
      expect400(await http().get(path).set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(await http().put(path).set(auth(admin)).send({}), 'id', 'value must be an integer greater than zero.');
      expect400(await http().delete(path).set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    }
  });

  it('answers 404 for a missing timeline or collection, and 401 without a session', async () => {
    expect404(await http().get('/api/timeline/999999').set(auth(admin)));
    expect404(await http().put('/api/timeline/999999').set(auth(admin)).send({ name: 'x' }));
    expect404(await http().delete('/api/timeline/999999').set(auth(admin)));
    expect404(await postTimeline({ name: 'Orphan', collection_id: 999999 }));
    const tl = await makeTimeline({});
    expect404(await http().put(`/api/timeline/${tl.id}`).set(auth(admin)).send({ collection_id: 999999 }));
    expect401(await http().get('/api/timeline'));
    expect401(await http().post('/api/timeline').send({ name: 'x' }));
    expect401(await http().get(`/api/timeline/${tl.id}`));
    expect401(await http().put(`/api/timeline/${tl.id}`).send({ name: 'x' }));
    expect401(await http().delete(`/api/timeline/${tl.id}`));
  });

  it('adds events with include=events: unarchived ones, all with archived=true, within start and end', async () => {
    const tl = await makeTimeline({ name: 'Bounded' });
    await makeEvent(tl.id, '2023-06-01T12:00:00Z', { name: 'Summer 23' });
    await makeEvent(tl.id, '2021-01-01', { name: 'New year 21' });
    await makeEvent(tl.id, '2022-03-15T08:30:00+02:00', { name: 'Spring 22' });
    await makeEvent(tl.id, '2022-01-10T00:00:00Z', { name: 'Old news', archived: true });
    const get = async (q: string) => (await http().get(`/api/timeline/${tl.id}?${q}`).set(auth(admin)).expect(200)).body as Json;

    expect(await get('')).not.toHaveProperty('events');
    expect(await get('start=2020-01-01')).not.toHaveProperty('events');
    const withEvents = await get('include=events');
    expect(eventNames(withEvents)).toEqual(['New year 21', 'Spring 22', 'Summer 23']);
    expect((withEvents.events as Json[])[1]).toMatchObject({
      timeline_id: tl.id,
      timestamp: '2022-03-15T06:30:00.000Z',
      timezone: 'UTC',
      archived: false,
      creator: { is_superuser: true },
    });
    expect(eventNames(await get('include=events&archived=true'))).toEqual(['New year 21', 'Old news', 'Spring 22', 'Summer 23']);
    expect(eventNames(await get('include=events&archived=false'))).toEqual(['New year 21', 'Spring 22', 'Summer 23']);

    // Bounds are inclusive; a date means its midnight (UTC unless an offset says otherwise).
    expect(eventNames(await get('include=events&start=2022-01-01'))).toEqual(['Spring 22', 'Summer 23']);
    expect(eventNames(await get('include=events&end=2022-12-31'))).toEqual(['New year 21', 'Spring 22']);
    expect(eventNames(await get('include=events&start=2022-01-01&end=2023-01-01'))).toEqual(['Spring 22']);
    expect(eventNames(await get('include=events&start=2021-01-01&end=2023-06-01T12:00:00Z'))).toEqual([
      'New year 21',
      'Spring 22',
      'Summer 23',
    ]);
    expect(eventNames(await get('include=events&start=2022-03-15T08:30:01%2B02:00'))).toEqual(['Summer 23']);
    expect(eventNames(await get('include=events&archived=true&start=2022-01-01&end=2022-02-01'))).toEqual(['Old news']);
    expect(eventNames(await get('include=events&start=2030-01-01'))).toEqual([]);
  });

  it('lists readable timelines by name, archived ones only with archived=true, with events on request', async () => {
    const b = await makeTimeline({ name: 'list-b', collection_id: shared });
    const a = await makeTimeline({ name: 'List-a' });
    const gone = await makeTimeline({ name: 'list-c', archived: true });
    await makeEvent(a.id, '2022-01-01', { name: 'a1' });
    await makeEvent(gone.id, '2022-01-01', { name: 'c1', archived: true });
    await makeEvent(gone.id, '2022-01-02', { name: 'c2' });

    const list = async (q: string, key = admin) =>
      ((await http().get(`/api/timeline/?${q}`).set(auth(key)).expect(200)).body as Json[]).filter((x) =>
        String(x.name).toLowerCase().startsWith('list-'),
      );
    const active = await list('');
    expect(names(active)).toEqual(['List-a', 'list-b']);
    expect(active[0]).not.toHaveProperty('events');
    expect(active[1]).toMatchObject({ id: b.id, collection: { id: shared, can_write: true }, creator: { is_superuser: true } });
    expect((await list('include=events')).map((x) => [x.name, names(x.events as Json[])])).toEqual([
      ['List-a', ['a1']],
      ['list-b', []],
    ]);
    const archived = await list('archived=true&include=events');
    expect(archived.map((x) => [x.name, names(x.events as Json[])])).toEqual([['list-c', ['c1', 'c2']]]);
    expect(await list('archived=false')).toHaveLength(2);
    // The Root belongs to All Users by default; the shared collection to the reader's group; the secret one to nobody.
    await makeTimeline({ name: 'list-secret', collection_id: secret });
    expect(names(await list('', reader.session))).toEqual(['List-a', 'list-b']);
    expect((await list('', reader.session))[1]).toMatchObject({ collection: { id: shared, can_write: false } });
    expect(names(await list('', admin))).toEqual(['List-a', 'list-b', 'list-secret']);
  });

  it('archiving a timeline archives all its events, unarchiving brings them back; PUT answers without events', async () => {
    const tl = await makeTimeline({ name: 'To archive' });
    const e1 = await makeEvent(tl.id, '2022-01-01');
    const e2 = await makeEvent(tl.id, '2022-02-01');
    const put = (body: Json) => http().put(`/api/timeline/${tl.id}`).set(auth(admin)).send(body).expect(200);

    const archived = (await put({ archived: true })).body;
    expect(archived).toMatchObject({ id: tl.id, archived: true, name: 'To archive', collection: { id: 'root' } });
    expect(archived).not.toHaveProperty('events');
    for (const e of [e1, e2])
      expect((await http().get(`/api/timeline-event/${e.id}`).set(auth(admin)).expect(200)).body.archived).toBe(true);
    expect(eventNames((await http().get(`/api/timeline/${tl.id}?include=events`).set(auth(admin)).expect(200)).body)).toEqual([]);
    const listed = (await http().get('/api/timeline?archived=true').set(auth(admin)).expect(200)).body as Json[];
    expect(listed.map((x) => x.id)).toContain(tl.id);
    expect(((await http().get('/api/timeline').set(auth(admin)).expect(200)).body as Json[]).map((x) => x.id)).not.toContain(tl.id);

    // Archiving again changes nothing; unarchiving brings every event back.
    await put({ archived: true });
    expect((await put({ archived: false })).body.archived).toBe(false);
    for (const e of [e1, e2])
      expect((await http().get(`/api/timeline-event/${e.id}`).set(auth(admin)).expect(200)).body.archived).toBe(false);
  });

  it('updates what is sent: null clears the description and moves to the Root, other nulls change nothing', async () => {
    const tl = await makeTimeline({ name: 'Before', description: 'words', icon: 'bell', collection_id: shared, default: true });
    await makeEvent(tl.id, '2022-01-01');
    const put = async (body: Json) => (await http().put(`/api/timeline/${tl.id}`).set(auth(admin)).send(body).expect(200)).body as Json;

    const renamed = await put({ name: 'After', icon: 'balloons', default: false });
    expect(renamed).toMatchObject({ name: 'After', icon: 'balloons', default: false, description: 'words', collection_id: shared });
    expect(renamed).not.toHaveProperty('events');
    expect(await put({ name: null, icon: null, default: null, archived: null })).toMatchObject({
      name: 'After',
      icon: 'balloons',
      default: false,
      archived: false,
      description: 'words',
    });
    expect(await put({ description: null })).toMatchObject({ description: null, collection_id: shared });
    expect(await put({ collection_id: null })).toMatchObject({ collection_id: null, collection: { id: 'root' } });
    expect(await put({ collection_id: shared })).toMatchObject({ collection_id: shared, collection: { id: shared, name: 'Shared' } });
    // The whole answer sent back is an ordinary edit: keys that are not the timeline's own are ignored.
    const whole = (await http().get(`/api/timeline/${tl.id}?include=events`).set(auth(admin)).expect(200)).body;
    expect(await put({ ...whole, name: 'Whole' })).toMatchObject({ name: 'Whole', collection_id: shared });
  });

  it('deletes a timeline with its events', async () => {
    const tl = await makeTimeline({ name: 'Doomed' });
    const events = [await makeEvent(tl.id, '2022-01-01'), await makeEvent(tl.id, '2022-01-02', { archived: true })];
    const other = await makeTimeline({ name: 'Survivor' });
    const kept = await makeEvent(other.id, '2022-01-01');

    const res = await http().delete(`/api/timeline/${tl.id}`).set(auth(admin)).expect(204);
    expect(res.text).toBe('');
    expect404(await http().get(`/api/timeline/${tl.id}`).set(auth(admin)));
    for (const e of events) expect404(await http().get(`/api/timeline-event/${e.id}`).set(auth(admin)));
    const left = await t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM timeline_event WHERE timeline_id = ${Number(tl.id)}`);
    expect(Number(left[0].n)).toBe(0);
    expect404(await http().delete(`/api/timeline/${tl.id}`).set(auth(admin)));
    await http().get(`/api/timeline-event/${kept.id}`).set(auth(admin)).expect(200);
  });

  it('lists the timelines of a collection and of the Root', async () => {
    const coll = await makeCollection(t, 'Timelines here');
    const inColl = await makeTimeline({ name: 'Coll active', collection_id: coll });
    const archivedInColl = await makeTimeline({ name: 'Coll archived', collection_id: coll, archived: true });
    await makeTimeline({ name: 'Elsewhere', collection_id: shared });
    await makeEvent(inColl.id, '2022-01-01', { name: 'live' });
    await makeEvent(inColl.id, '2022-01-02', { name: 'dead', archived: true });
    await makeEvent(archivedInColl.id, '2022-01-03', { name: 'archived with it', archived: true });
    const get = async (path: string) => (await http().get(path).set(auth(admin)).expect(200)).body as Json[];

    const active = await get(`/api/collection/${coll}/timelines`);
    expect(names(active)).toEqual(['Coll active']);
    expect(active[0]).toMatchObject({ collection: { id: coll, name: 'Timelines here', can_write: true }, creator: { is_superuser: true } });
    expect(active[0]).not.toHaveProperty('events');
    expect((await get(`/api/collection/${coll}/timelines?include=events`)).map((x) => eventNames(x))).toEqual([['live']]);
    expect((await get(`/api/collection/${coll}/timelines?archived=true&include=events`)).map((x) => [x.name, eventNames(x)])).toEqual([
      ['Coll archived', ['archived with it']],
    ]);

    await makeTimeline({ name: 'Root active' });
    await makeTimeline({ name: 'Root archived', archived: true });
    const root = await get('/api/collection/root/timelines?include=events');
    expect(names(root)).toContain('Root active');
    expect(names(root)).not.toContain('Root archived');
    expect(root.every((x) => x.collection_id === null && (x.collection as Json).id === 'root' && Array.isArray(x.events))).toBe(true);
    expect(names(root)).not.toContain('Coll active');
    const rootArchived = await get('/api/collection/root/timelines?archived=true');
    expect(names(rootArchived)).toContain('Root archived');
    expect(rootArchived.every((x) => x.archived === true && x.collection_id === null)).toBe(true);

    expect404(await http().get('/api/collection/999999/timelines').set(auth(admin)));
    expect400(
      await http().get(`/api/collection/${coll}/timelines?include=cards`).set(auth(admin)),
      'include',
      'value must be one of: `events`.',
    );
    expect400(
      await http().get(`/api/collection/${coll}/timelines?archived=x`).set(auth(admin)),
      'archived',
      'value must be a valid boolean string.',
    );
    expect400(await http().get('/api/collection/root/timelines?include=x').set(auth(admin)), 'include', 'value must be one of: `events`.');
    expect400(await http().get('/api/collection/x/timelines').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    expect401(await http().get('/api/collection/root/timelines'));
  });

  it("lists a card's timelines: those of its collection, unarchived, events within start and end", async () => {
    const coll = await makeCollection(t, 'Card home');
    const card = await makeCard(t, admin, tableQuery(s.db, s.table('ORDERS').id), { collection_id: coll });
    const tl = await makeTimeline({ name: 'Card timeline', collection_id: coll });
    await makeTimeline({ name: 'Archived card timeline', collection_id: coll, archived: true });
    await makeEvent(tl.id, '2022-01-01', { name: 'jan' });
    await makeEvent(tl.id, '2022-06-01', { name: 'jun' });
    await makeEvent(tl.id, '2022-03-01', { name: 'archived mar', archived: true });
    const get = async (q = '') => (await http().get(`/api/card/${card.id}/timelines?${q}`).set(auth(admin)).expect(200)).body as Json[];

    const plain = await get();
    expect(names(plain)).toEqual(['Card timeline']);
    expect(plain[0]).not.toHaveProperty('events');
    expect((await get('include=events')).map(eventNames)).toEqual([['jan', 'jun']]);
    expect((await get('include=events&start=2022-02-01')).map(eventNames)).toEqual([['jun']]);
    expect((await get('include=events&end=2022-02-01')).map(eventNames)).toEqual([['jan']]);
    expect((await get('include=events&start=2022-01-01&end=2022-06-01')).map(eventNames)).toEqual([['jan', 'jun']]);

    // A card in the Root: the Root's timelines.
    const rootCard = await makeCard(t, admin, tableQuery(s.db, s.table('ORDERS').id));
    await makeTimeline({ name: 'Root card timeline' });
    const rootNames = names((await http().get(`/api/card/${rootCard.id}/timelines`).set(auth(admin)).expect(200)).body);
    expect(rootNames).toContain('Root card timeline');
    expect(rootNames).not.toContain('Card timeline');

    expect400(
      await http().get(`/api/card/${card.id}/timelines?include=all`).set(auth(admin)),
      'include',
      'value must be one of: `events`.',
    );
    expect400(
      await http().get(`/api/card/${card.id}/timelines?start=soon`).set(auth(admin)),
      'start',
      'value must be a valid date string.',
    );
    expect400(
      await http().get(`/api/card/${card.id}/timelines?end=2022-02-30`).set(auth(admin)),
      'end',
      'value must be a valid date string.',
    );
    expect400(await http().get('/api/card/0/timelines').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
    expect404(await http().get('/api/card/999999/timelines').set(auth(admin)));
    expect401(await http().get(`/api/card/${card.id}/timelines`));
  });

  it('is an item of its collection (models=timeline), never pinned, and is archived and unarchived with it', async () => {
    const coll = await makeCollection(t, 'Items home');
    const tl = await makeTimeline({ name: 'Item timeline', description: 'as an item', icon: 'mail', collection_id: coll });
    await makeEvent(tl.id, '2022-01-01');
    const items = async (q: string) =>
      (await http().get(`/api/collection/${coll}/items?${q}`).set(auth(admin)).expect(200)).body as {
        total: number;
        data: Json[];
        models: string[];
      };

    const listed = await items('models=timeline');
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({
      id: tl.id,
      model: 'timeline',
      name: 'Item timeline',
      description: 'as an item',
      icon: 'mail',
      entity_id: tl.entity_id,
      collection_id: coll,
    });
    expect((await items('')).data.map((x) => [x.model, x.id])).toContainEqual(['timeline', tl.id]);
    expect((await items('models=timeline&pinned_state=is_pinned')).data).toEqual([]);
    expect((await items('models=card')).data).toEqual([]);
    await makeTimeline({ name: 'Root item timeline' });
    const rootItems = (await http().get('/api/collection/root/items?models=timeline').set(auth(admin)).expect(200)).body.data as Json[];
    expect(names(rootItems)).toContain('Root item timeline');
    expect(names(rootItems)).not.toContain('Item timeline');

    type Node = { id: number; here: string[]; children: Node[] };
    const find = (nodes: Node[]): Node | undefined => nodes.map((n) => (n.id === coll ? n : find(n.children))).find(Boolean);
    expect(find((await http().get('/api/collection/tree').set(auth(admin)).expect(200)).body)?.here).toEqual(['timeline']);

    await http().put(`/api/collection/${coll}`).set(auth(admin)).send({ archived: true }).expect(200);
    expect((await http().get(`/api/timeline/${tl.id}`).set(auth(admin)).expect(200)).body.archived).toBe(true);
    expect((await items('models=timeline&archived=true')).data.map((x) => x.id)).toEqual([tl.id]);
    await http().put(`/api/collection/${coll}`).set(auth(admin)).send({ archived: false }).expect(200);
    expect((await http().get(`/api/timeline/${tl.id}`).set(auth(admin)).expect(200)).body.archived).toBe(false);
    expect((await items('models=timeline')).total).toBe(1);
  });

  it('lets readers read, writers write, and refuses users without access to the collection', async () => {
    const tl = await makeTimeline({ name: 'Guarded', collection_id: shared });
    const event = await makeEvent(tl.id, '2022-01-01');
    const card = await makeCard(t, admin, tableQuery(s.db, s.table('ORDERS').id), { collection_id: shared });

    // Reader: reads everything, writes nothing.
    const read = await http().get(`/api/timeline/${tl.id}?include=events`).set(auth(reader.session)).expect(200);
    expect(read.body).toMatchObject({ collection: { id: shared, can_write: false } });
    expect(eventNames(read.body)).toHaveLength(1);
    expect(names((await http().get(`/api/collection/${shared}/timelines`).set(auth(reader.session)).expect(200)).body)).toContain(
      'Guarded',
    );
    expect(names((await http().get(`/api/card/${card.id}/timelines`).set(auth(reader.session)).expect(200)).body)).toContain('Guarded');
    await http().get(`/api/timeline-event/${event.id}`).set(auth(reader.session)).expect(200);
    expect403(await postTimeline({ name: 'Nope', collection_id: shared }, reader.session));
    expect403(await http().put(`/api/timeline/${tl.id}`).set(auth(reader.session)).send({ name: 'Nope' }));
    expect403(await http().put(`/api/timeline/${tl.id}`).set(auth(reader.session)).send({ archived: true }));
    expect403(await http().delete(`/api/timeline/${tl.id}`).set(auth(reader.session)));
    expect403(
      await http()
        .post('/api/timeline-event')
        .set(auth(reader.session))
        .send({ name: 'Nope', timestamp: '2022-01-01', timezone: 'UTC', timeline_id: tl.id }),
    );
    expect403(await http().put(`/api/timeline-event/${event.id}`).set(auth(reader.session)).send({ name: 'Nope' }));
    expect403(await http().delete(`/api/timeline-event/${event.id}`).set(auth(reader.session)));

    // Outsider: nothing at all, and the listings leave the timeline out.
    expect403(await http().get(`/api/timeline/${tl.id}`).set(auth(outsider.session)));
    expect403(await http().get(`/api/collection/${shared}/timelines`).set(auth(outsider.session)));
    expect403(await http().get(`/api/card/${card.id}/timelines`).set(auth(outsider.session)));
    expect403(await http().get(`/api/timeline-event/${event.id}`).set(auth(outsider.session)));
    expect403(await http().get(`/api/timeline-event?timeline_id=${tl.id}`).set(auth(outsider.session)));
    expect(names((await http().get('/api/timeline').set(auth(outsider.session)).expect(200)).body)).not.toContain('Guarded');
    expect(
      ((await http().get('/api/timeline-event').set(auth(outsider.session)).expect(200)).body as Json[]).map((e) => e.id),
    ).not.toContain(event.id);
    expect403(await http().put(`/api/timeline/${tl.id}`).set(auth(outsider.session)).send({ name: 'Nope' }));
    expect403(await http().delete(`/api/timeline/${tl.id}`).set(auth(outsider.session)));

    // Writer: creates, changes, archives, deletes in the shared collection, but cannot move a timeline where it may not write.
    const own = (await postTimeline({ name: 'Writer made', collection_id: shared }, writer.session).expect(200)).body;
    expect(own.collection).toMatchObject({ id: shared, can_write: true });
    await http().put(`/api/timeline/${tl.id}`).set(auth(writer.session)).send({ name: 'Guarded, renamed' }).expect(200);
    expect403(await http().put(`/api/timeline/${tl.id}`).set(auth(writer.session)).send({ collection_id: secret }));
    expect403(await postTimeline({ name: 'Nope', collection_id: secret }, writer.session));
    await http().put(`/api/timeline/${own.id}`).set(auth(writer.session)).send({ archived: true }).expect(200);
    await http().delete(`/api/timeline/${own.id}`).set(auth(writer.session)).expect(204);
    expect((await http().get(`/api/timeline/${tl.id}`).set(auth(admin)).expect(200)).body).toMatchObject({
      name: 'Guarded, renamed',
      collection_id: shared,
    });
  });
});
