import { makeCard, nativeQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

/**
 * Issue 30, finding 9: `GET /api/public/oembed?url=https://evil.example/public/question/<uuid>` answered an iframe of
 * evil.example. Only pages of this site are framed: `site-url`, or the request's own origin while it is unset.
 */
describe('oEmbed frames only this site (issue 30)', () => {
  let s: SampleApp;
  let card: string;
  let dash: string;
  const http = () => s.t.http();
  const siteUrl = (value: string | null) => http().put('/api/setting/site-url').set(auth(s.admin)).send({ value }).expect(204);
  /** The oEmbed answer for `url`, asked as a client of `host` would. */
  const oembed = (url: string, host = 'analytics.local:3000') => http().get('/api/public/oembed').set('Host', host).query({ url });
  const refused = async (url: string, host?: string) => {
    const res = await oembed(url, host);
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'An error occurred.' });
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  };

  beforeAll(async () => {
    s = await startSampleApp();
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    const made = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS ONE'));
    card = (await http().post(`/api/card/${made.id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
    const d = await dashboardWith(s.t, s.admin, [made.id]);
    dash = (await http().post(`/api/dashboard/${d.id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
  });
  afterAll(() => s.t.close());

  it('refuses the page of a public link on another host (the replayed request)', async () => {
    await refused(`https://evil.example/public/question/${card}`);
    await refused(`https://evil.example/public/dashboard/${dash}`);
  });

  it("without site-url, takes pages of the request's own origin only", async () => {
    const own = `http://analytics.local:3000/public/question/${card}`;
    const res = await oembed(own).expect(200);
    expect(res.body.html).toBe(`<iframe src="${own}" width="1024" height="800" frameborder="0" allowtransparency></iframe>`);
    await oembed(`http://ANALYTICS.local:3000/public/dashboard/${dash}`).expect(200);
    for (const other of [
      `https://analytics.local:3000/public/question/${card}`, // another scheme
      `http://analytics.local:3001/public/question/${card}`, // another port
      `http://analytics.local:3000.evil.example/public/question/${card}`,
      `http://analytics.local/public/question/${card}`,
    ]) {
      await refused(other);
    }
    // The host asked for is the request's own only: the Host header names the site, not the page being asked about.
    await oembed(`https://evil.example/public/question/${card}`, 'evil.example').expect(400);
  });

  it('with site-url, takes pages below it only, whatever Host the request names', async () => {
    await siteUrl('https://bi.example.com/analytics/');
    try {
      const page = `https://bi.example.com/analytics/public/dashboard/${dash}`;
      expect((await oembed(page, 'evil.example').expect(200)).body.html).toContain(`src="${page}"`);
      await refused(`https://bi.example.com/public/dashboard/${dash}`); // not below the site's path
      await refused(`https://bi.example.com/analyticsx/public/dashboard/${dash}`);
      await refused(`http://bi.example.com/analytics/public/dashboard/${dash}`);
      await refused(`https://evil.example/analytics/public/dashboard/${dash}`, 'evil.example');
      await refused(`http://analytics.local:3000/public/question/${card}`); // the request's origin no longer counts
    } finally {
      await siteUrl(null);
    }
  });
});
