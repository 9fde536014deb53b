import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { dashToken, embeddable, expectEmbed400, expectNoInternals, setEmbedding } from './embed-helpers';

jest.setTimeout(180_000);

/**
 * An embedded dashboard: category locked by the token, vendor set by the viewer. GET, dashcard queries, chain-filter
 * values narrowed by the locked value, field look-ups, pivot.
 */
describe('embed: dashboard', () => {
  let s: SampleApp;
  let dash: number;
  let dashcard: number;
  let card: number;
  let category: number;
  let vendor: number;
  const http = () => s.t.http();
  const count = (res: { body: { data: { rows: unknown[][] } } }) => Number(res.body.data.rows[0][0]);
  const adminCount = async (filter?: unknown[]) =>
    Number(
      (
        await http()
          .post('/api/dataset')
          .set(auth(s.admin))
          .send(tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']], ...(filter ? { filter } : {}) }))
          .expect(202)
      ).body.data.rows[0][0],
    );
  const gizmo = () => dashToken(dash, { category: 'Gizmo' });

  beforeAll(async () => {
    s = await startSampleApp();
    await setEmbedding(s.t, s.admin);
    category = s.field('PRODUCTS', 'CATEGORY');
    vendor = s.field('PRODUCTS', 'VENDOR');
    card = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }))).id;
    const parameters = [
      { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' },
      { id: 'ven', name: 'Vendor', slug: 'vendor', type: 'string/=' },
      { id: 'hid', name: 'Hidden', slug: 'hidden', type: 'string/=' },
    ];
    const d = await makeDashboard(s.t, s.admin, { parameters });
    const mappings = [
      { parameter_id: 'cat', card_id: card, target: ['dimension', ['field', category, null]] },
      { parameter_id: 'ven', card_id: card, target: ['dimension', ['field', vendor, null]] },
      { parameter_id: 'hid', card_id: card, target: ['dimension', ['field', s.field('PRODUCTS', 'EAN'), null]] },
    ];
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, card, { parameter_mappings: mappings })] })
      .expect(200);
    dash = d.id;
    dashcard = put.body.dashcards[0].id;
    await embeddable(s.t, s.admin, 'dashboard', dash, { category: 'locked', vendor: 'enabled', hidden: 'disabled' });
  });
  afterAll(() => s.t.close());

  it('GET shows only the viewer parameters, their mappings and fields, and nothing internal', async () => {
    const got = await http().get(`/api/embed/dashboard/${gizmo()}`).expect(200);
    expect(got.body.parameters.map((p: { slug: string }) => p.slug)).toEqual(['vendor']);
    expect(got.body.dashcards[0].parameter_mappings.map((m: { parameter_id: string }) => m.parameter_id)).toEqual(['ven']);
    expect(Object.keys(got.body.param_fields)).toEqual([String(vendor)]);
    expect(got.body.dashcards[0].card).toMatchObject({ id: card, dataset_query: { type: 'query' } });
    expectNoInternals(got.body, ['Gizmo', '"cat"', '"hid"']);
  });

  it('runs dashcards with the locked value of the token and the viewer values', async () => {
    const gizmos = await adminCount(['=', ['field', category, null], 'Gizmo']);
    const res = await http().get(`/api/embed/dashboard/${gizmo()}/dashcard/${dashcard}/card/${card}`).expect(202);
    expect(count(res)).toBe(gizmos);
    expectNoInternals(res.body);
    const [v] = (await http().get(`/api/embed/dashboard/${gizmo()}/params/ven/values`).expect(200)).body.values[0];
    const both = await adminCount(['and', ['=', ['field', category, null], 'Gizmo'], ['=', ['field', vendor, null], v]]);
    expect(
      count(await http().get(`/api/embed/dashboard/${gizmo()}/dashcard/${dashcard}/card/${card}`).query({ vendor: v }).expect(202)),
    ).toBe(both);
    expect(
      count(
        await http()
          .get(`/api/embed/dashboard/${gizmo()}/dashcard/${dashcard}/card/${card}`)
          .query({ parameters: JSON.stringify({ vendor: [v] }) })
          .expect(202),
      ),
    ).toBe(both);
    // An empty list locks nothing out: every product.
    expect(
      count(
        await http()
          .get(`/api/embed/dashboard/${dashToken(dash, { category: [] })}/dashcard/${dashcard}/card/${card}`)
          .expect(202),
      ),
    ).toBe(await adminCount());
  });

  it('applies the rules to dashcard queries', async () => {
    const q = (token: string, query: object = {}) =>
      http().get(`/api/embed/dashboard/${token}/dashcard/${dashcard}/card/${card}`).query(query);
    expectEmbed400(await q(dashToken(dash)), 'You must specify a value for category in the JWT.');
    expectEmbed400(await q(gizmo(), { category: 'Widget' }), 'You can only specify a value for category in the JWT.');
    expectEmbed400(await q(gizmo(), { hidden: 'x' }), "You're not allowed to specify a value for hidden.");
    expectEmbed400(
      await q(dashToken(dash, { category: 'Gizmo', vendor: 'a' }), { vendor: 'b' }),
      "You can't specify a value for vendor if it's already set in the JWT.",
    );
    expectEmbed400(await q(gizmo(), { nosuch: 'x' }), 'Unknown parameter nosuch.');
  });

  it('limits chain-filter values by the locked value of the token', async () => {
    const all = (await http().get(`/api/dashboard/${dash}/params/ven/values`).set(auth(s.admin)).expect(200)).body.values;
    const narrowed = (await http().get(`/api/dashboard/${dash}/params/ven/values?cat=Gizmo`).set(auth(s.admin)).expect(200)).body.values;
    expect(narrowed.length).toBeLessThan(all.length);
    const embedded = await http().get(`/api/embed/dashboard/${gizmo()}/params/ven/values`).expect(200);
    expect(embedded.body.values).toEqual(narrowed);
    // A viewer's attempt to widen it through the constraint is refused.
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${gizmo()}/params/ven/values?cat=Widget`),
      'You can only specify a value for category in the JWT.',
    );
    const prefix = String(narrowed[0][0]).slice(0, 3);
    const searched = await http()
      .get(`/api/embed/dashboard/${gizmo()}/params/ven/search/${encodeURIComponent(prefix)}`)
      .expect(200);
    expect(searched.body.values.length).toBeGreaterThan(0);
    for (const [value] of searched.body.values) expect(narrowed.map((n: unknown[]) => n[0])).toContain(value);
  });

  it('serves values only of parameters a viewer may set', async () => {
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${gizmo()}/params/cat/values`),
      'Cannot search for values: "category" is not an enabled parameter.',
    );
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${gizmo()}/params/hid/values`),
      'Cannot search for values: "hidden" is not an enabled parameter.',
    );
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${dashToken(dash, { category: 'Gizmo', vendor: 'x' })}/params/ven/values`),
      'You can\'t specify a value for "vendor" if it\'s already set in the JWT.',
    );
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${gizmo()}/params/nosuch/values`),
      'Cannot search for values: "nosuch" is not an enabled parameter.',
    );
  });

  it('serves field look-ups only for the fields behind viewer parameters', async () => {
    const token = gizmo();
    const values = await http().get(`/api/embed/dashboard/${token}/field/${vendor}/values`).expect(200);
    expect(values.body.field_id).toBe(vendor);
    await http().get(`/api/embed/dashboard/${token}/field/${vendor}/search/${vendor}?value=a`).expect(200);
    await http().get(`/api/embed/dashboard/${token}/field/${vendor}/remapping/${vendor}?value=x`).expect(200);
    for (const field of [category, s.field('PRODUCTS', 'EAN'), s.field('PRODUCTS', 'PRICE')]) {
      expectEmbed400(await http().get(`/api/embed/dashboard/${token}/field/${field}/values`), "You don't have permissions to do that.");
    }
  });

  it("downloads a dashcard's results with the token's locked value", async () => {
    const gizmos = await adminCount(['=', ['field', category, null], 'Gizmo']);
    const csv = await http().get(`/api/embed/dashboard/${gizmo()}/dashcard/${dashcard}/card/${card}/csv`).expect(200);
    expect(csv.text.trim().split(/\r?\n/)).toEqual(['Count', String(gizmos)]);
    const api = await http().get(`/api/embed/dashboard/${gizmo()}/dashcard/${dashcard}/card/${card}/api`).expect(200);
    expect(count(api)).toBe(gizmos);
    expectNoInternals(api.body);
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${dashToken(dash)}/dashcard/${dashcard}/card/${card}/csv`),
      'You must specify a value for category in the JWT.',
    );
    expectEmbed400(await http().get(`/api/embed/dashboard/${gizmo()}/dashcard/${dashcard + 1000}/card/${card}/csv`), 'Not found.');
  });

  it('runs the pivot twin of a dashcard', async () => {
    const res = await http().get(`/api/embed/pivot/dashboard/${gizmo()}/dashcard/${dashcard}/card/${card}`).expect(202);
    expect(res.body.status).toBe('completed');
    expectNoInternals(res.body);
  });
});
