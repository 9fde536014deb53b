import { makeCard, nativeQuery, tableQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { expect403, expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Making and revoking public links, the listings, the guard's answers, and oEmbed. */
describe('public links', () => {
  let s: SampleApp;
  let adminId: number;
  const http = () => s.t.http();
  const sharing = (on: boolean) => http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: on }).expect(204);
  const terse = (res: { status: number; text: string; headers: Record<string, string> }, status: number, text: string) => {
    expect({ status: res.status, text: res.text }).toEqual({ status, text });
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  };

  beforeAll(async () => {
    s = await startSampleApp();
    adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    await sharing(true);
  });
  afterAll(() => s.t.close());

  it('makes one link per card, returns it again, stores who made it, and lists it', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const first = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    expect(first).toEqual({ uuid: expect.stringMatching(UUID) });
    expect((await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body).toEqual(first);
    const got = (await http().get(`/api/card/${card.id}`).set(auth(s.admin)).expect(200)).body;
    expect(got).toMatchObject({ public_uuid: first.uuid, made_public_by_id: adminId });
    const listed = (await http().get('/api/card/public').set(auth(s.admin)).expect(200)).body;
    expect(listed).toContainEqual({ id: card.id, name: card.name, public_uuid: first.uuid });
    await http().get(`/api/public/card/${first.uuid}`).expect(200);

    await http().delete(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(204);
    expect((await http().get(`/api/card/${card.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject({
      public_uuid: null,
      made_public_by_id: null,
    });
    expect((await http().get('/api/card/public').set(auth(s.admin)).expect(200)).body).not.toContainEqual(
      expect.objectContaining({ id: card.id }),
    );
    expect404(await http().get(`/api/public/card/${first.uuid}`));
    expect404(await http().delete(`/api/card/${card.id}/public_link`).set(auth(s.admin)));
    const again = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    expect(again.uuid).not.toBe(first.uuid);
  });

  it('does the same for dashboards', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const dash = await dashboardWith(s.t, s.admin, [card.id]);
    const { uuid } = (await http().post(`/api/dashboard/${dash.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    expect(uuid).toMatch(UUID);
    expect((await http().post(`/api/dashboard/${dash.id}/public_link`).set(auth(s.admin)).expect(200)).body).toEqual({ uuid });
    expect((await http().get(`/api/dashboard/${dash.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject({
      public_uuid: uuid,
      made_public_by_id: adminId,
    });
    expect((await http().get('/api/dashboard/public').set(auth(s.admin)).expect(200)).body).toContainEqual({
      id: dash.id,
      name: dash.name,
      public_uuid: uuid,
    });
    await http().get(`/api/public/dashboard/${uuid}`).expect(200);
    await http().delete(`/api/dashboard/${dash.id}/public_link`).set(auth(s.admin)).expect(204);
    expect404(await http().get(`/api/public/dashboard/${uuid}`));
  });

  it('lets only superusers make or revoke links, of objects that exist and are not archived', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const dash = await dashboardWith(s.t, s.admin, [card.id]);
    for (const path of [`/api/card/${card.id}/public_link`, `/api/dashboard/${dash.id}/public_link`]) {
      expect403(await http().post(path).set(auth(s.user.session)));
      expect403(await http().delete(path).set(auth(s.user.session)));
      expect((await http().post(path)).status).toBe(401);
    }
    expect404(await http().post('/api/card/999999/public_link').set(auth(s.admin)));
    expect404(await http().post('/api/dashboard/999999/public_link').set(auth(s.admin)));
    expect((await http().post('/api/card/0/public_link').set(auth(s.admin))).body).toMatchObject({
      errors: { 'card-id': 'value must be an integer greater than zero.' },
    });
    await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    const archived = await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin));
    expect(archived.status).toBe(404);
    expect(archived.body).toEqual({ message: 'The object has been archived.', error_code: 'archived' });
  });

  it('needs public sharing on to make, revoke or use a link', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const { uuid } = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    await sharing(false);
    try {
      const refused = await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin));
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: { message: 'Public sharing is not enabled.' } });
      expect((await http().delete(`/api/card/${card.id}/public_link`).set(auth(s.admin))).status).toBe(400);
      terse(await http().get(`/api/public/card/${uuid}`), 400, 'An error occurred.');
      terse(await http().get(`/api/public/card/${uuid}/query`), 400, 'An error occurred.');
      terse(await http().get('/api/public/card/not-a-uuid'), 400, 'An error occurred.');
      terse(
        await http().get(`/api/public/oembed?url=${encodeURIComponent(`http://localhost/public/question/${uuid}`)}`),
        400,
        'An error occurred.',
      );
    } finally {
      await sharing(true);
    }
    await http().get(`/api/public/card/${uuid}`).expect(200);
  });

  it('answers a malformed UUID, an unknown one, and a bad id as the public surface does', async () => {
    for (const bad of ['nope', '1', '00000000-0000-0000-0000-00000000000g', "1' OR '1'='1"]) {
      terse(await http().get(`/api/public/card/${encodeURIComponent(bad)}`), 400, 'value must be a valid UUID.');
      terse(await http().get(`/api/public/dashboard/${encodeURIComponent(bad)}/params/x/values`), 400, 'value must be a valid UUID.');
    }
    terse(await http().get('/api/public/card/2b3a6a4c-3b1e-4c8e-9f55-6e1f7d2a9c10'), 404, 'Not found.');
    terse(await http().get('/api/public/dashboard/2b3a6a4c-3b1e-4c8e-9f55-6e1f7d2a9c10/dashcard/1/card/1'), 404, 'Not found.');
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const { uuid } = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    terse(await http().get(`/api/public/card/${uuid}/field/0/values`), 400, 'An error occurred.');
    terse(await http().get(`/api/public/card/${uuid}/query?parameters=%7Bnope`), 400, 'An error occurred.');
    // The card's UUID names no dashboard.
    terse(await http().get(`/api/public/dashboard/${uuid}`), 404, 'Not found.');
  });

  it('never serves an archived card or dashboard, and serves it again once restored', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const dash = await dashboardWith(s.t, s.admin, [card.id]);
    const c = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
    const d = (await http().post(`/api/dashboard/${dash.id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
    await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    await http().put(`/api/dashboard/${dash.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expect404(await http().get(`/api/public/card/${c}`));
    expect404(await http().get(`/api/public/card/${c}/query`));
    expect404(await http().get(`/api/public/dashboard/${d}`));
    expect((await http().get('/api/card/public').set(auth(s.admin)).expect(200)).body).not.toContainEqual(
      expect.objectContaining({ id: card.id }),
    );
    await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: false }).expect(200);
    await http().get(`/api/public/card/${c}`).expect(200);
  });

  it('answers oEmbed for the page of a public link, with an escaped iframe sized to the bounds', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS ONE'));
    const { uuid } = (await http().post(`/api/card/${card.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    const url = `https://bi.example.com/public/question/${uuid}`;
    // The page must be on this site: here the request's own origin, https://bi.example.com (through a trusted proxy).
    const oembed = () => http().get('/api/public/oembed').set('Host', 'bi.example.com').set('X-Forwarded-Proto', 'https');
    const res = await oembed().query({ url, format: 'json', maxwidth: '600', maxheight: '400' }).expect(200);
    expect(res.body).toEqual({
      version: '1.0',
      type: 'rich',
      width: 600,
      height: 400,
      html: `<iframe src="${url}" width="600" height="400" frameborder="0" allowtransparency></iframe>`,
    });
    const defaults = (
      await oembed()
        .query({ url: `${url}#bordered=true&titled="x"` })
        .expect(200)
    ).body;
    expect(defaults).toMatchObject({ width: 1024, height: 800 });
    expect(defaults.html).toContain('#bordered=true&amp;titled=%22x%22"');
    for (const query of [
      { url, format: 'xml' },
      { url, maxwidth: 'wide' },
      { url: 'javascript:alert(1)//public/question/' + uuid },
      { url: 'https://evil.example.com/x' },
      {},
    ]) {
      terse(await oembed().query(query), 400, 'An error occurred.');
    }
    terse(await oembed().query({ url: 'https://bi.example.com/public/dashboard/2b3a6a4c-3b1e-4c8e-9f55-6e1f7d2a9c10' }), 404, 'Not found.');
  });
});
