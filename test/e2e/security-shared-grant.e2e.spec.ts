import type { SharedGrant } from '../../src/common/auth/shared-grant';
import { ForbiddenError } from '../../src/common/errors/api-errors';
import { CardAccessService } from '../../src/modules/cards';
import { DashboardsService } from '../../src/modules/dashboards';
import { FieldDataService, FieldValuesService, MetadataAccess } from '../../src/modules/fields';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { expect403, FORBIDDEN } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { dashToken, embeddable, setEmbedding } from './embed-helpers';

jest.setTimeout(180_000);

/**
 * Issue 32, item 3: public links and embeds read with the grant their guard produced, never as a made-up superuser.
 * A shared card still runs when its creator has lost access to the data (the link authorizes, as in Metabase), but the
 * grant reaches nothing an admin could and the object does not use: no other field, card, dashboard, sensitive value or
 * write.
 */
describe('security: a shared object reads with its grant, never as an admin (issue 32, item 3)', () => {
  let s: SampleApp;
  let card: number;
  let otherCard: number;
  let dashboard: number;
  let dashcard: number;
  let cardUuid: string;
  let dashboardUuid: string;
  let category: number;
  let vendor: number;
  let password: number;
  const http = () => s.t.http();
  const publicRefused = (res: { status: number; text: string }) => expect([res.status, res.text]).toEqual([400, 'An error occurred.']);

  beforeAll(async () => {
    s = await startSampleApp();
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    await setEmbedding(s.t, s.admin);
    category = s.field('PRODUCTS', 'CATEGORY');
    vendor = s.field('PRODUCTS', 'VENDOR');
    password = s.field('PEOPLE', 'PASSWORD');
    await http().put(`/api/field/${password}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
    const parameters = [
      { id: 'cat', name: 'Category', slug: 'category', type: 'string/=', target: ['dimension', ['field', category, null]] },
    ];
    // Made by a signed-in user who may query the Sample Database now, and loses that access below.
    card = (
      await makeCard(s.t, s.user.session, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }), {
        name: 'Products',
        parameters,
      })
    ).id;
    otherCard = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id, { aggregation: [['count']] }))).id;
    cardUuid = (await http().post(`/api/card/${card}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
    const d = await makeDashboard(s.t, s.admin, { parameters: [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=' }] });
    const mapping = { parameter_id: 'cat', card_id: card, target: ['dimension', ['field', category, null]] };
    const saved = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, card, { parameter_mappings: [mapping] })] })
      .expect(200);
    dashboard = d.id;
    dashcard = saved.body.dashcards[0].id;
    dashboardUuid = (await http().post(`/api/dashboard/${d.id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
    await embeddable(s.t, s.admin, 'dashboard', dashboard, { category: 'enabled' });
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [s.db]: { data: 'no', native: 'none' } } } })
      .expect(200);
  });
  afterAll(() => s.t.close());

  it("runs a shared card whose creator may no longer read its table: the link authorizes, not the creator's permissions", async () => {
    expect403(await http().post(`/api/card/${card}/query`).set(auth(s.user.session)).send({}));
    const viaCard = await http().get(`/api/public/card/${cardUuid}/query`).expect(202);
    expect(viaCard.body).toMatchObject({ status: 'completed', data: { rows: [[200]] } });
    const gizmo = [{ id: 'cat', type: 'string/=', target: ['dimension', ['field', category, null]], value: ['Gizmo'] }];
    const asAdmin = await http().post(`/api/card/${card}/query`).set(auth(s.admin)).send({ parameters: gizmo }).expect(202);
    const parameters = JSON.stringify([{ id: 'cat', value: ['Gizmo'] }]);
    const viaDashboard = await http()
      .get(`/api/public/dashboard/${dashboardUuid}/dashcard/${dashcard}/card/${card}`)
      .query({ parameters })
      .expect(202);
    expect(viaDashboard.body).toMatchObject({ status: 'completed', data: { rows: asAdmin.body.data.rows } });
    expect(viaDashboard.body.data.rows[0][0]).toBeLessThan(200);
    const values = (await http().get(`/api/public/dashboard/${dashboardUuid}/params/cat/values`).expect(200)).body.values;
    expect(values).toEqual([['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']]);
  });

  it("looks up only its parameters' fields: another field of the same table is refused, though an admin reads it", async () => {
    expect((await http().get(`/api/field/${vendor}/values`).set(auth(s.admin)).expect(200)).body.values.length).toBeGreaterThan(0);
    expect403(await http().get(`/api/field/${vendor}/values`).set(auth(s.user.session)));
    expect((await http().get(`/api/public/dashboard/${dashboardUuid}/field/${category}/values`).expect(200)).body.values).toHaveLength(4);
    publicRefused(await http().get(`/api/public/dashboard/${dashboardUuid}/field/${vendor}/values`));
    publicRefused(await http().get(`/api/public/dashboard/${dashboardUuid}/field/${vendor}/search/${vendor}`).query({ value: 'a' }));
    publicRefused(await http().get(`/api/public/card/${cardUuid}/field/${vendor}/values`));
    const token = dashToken(dashboard);
    expect((await http().get(`/api/embed/dashboard/${token}/field/${category}/values`).expect(200)).body.values).toHaveLength(4);
    const embedded = await http().get(`/api/embed/dashboard/${token}/field/${vendor}/values`);
    expect([embedded.status, embedded.text]).toEqual([400, FORBIDDEN]);
  });

  it('gives the services a grant reaches nothing beyond its object: no other card or dashboard, no sensitive field, no write', async () => {
    const app = s.t.app;
    const cardGrant: SharedGrant = { shared: { via: 'public', model: 'card', id: card } };
    const dashboardGrant: SharedGrant = { shared: { via: 'embed', model: 'dashboard', id: dashboard } };
    const cardAccess = app.get(CardAccessService);
    expect((await cardAccess.readable(cardGrant, card)).row.id).toBe(card);
    await expect(cardAccess.readable(cardGrant, otherCard)).rejects.toBeInstanceOf(ForbiddenError);
    // A dashboard's grant reaches the cards on it only when it is read on that dashboard.
    const on = { id: dashboard, cardIds: new Set([card]) };
    expect((await cardAccess.readable(dashboardGrant, card, on)).row.id).toBe(card);
    await expect(cardAccess.readable(dashboardGrant, card)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(cardAccess.readable(dashboardGrant, otherCard, on)).rejects.toBeInstanceOf(ForbiddenError);
    const dashboards = app.get(DashboardsService);
    expect((await dashboards.readable(dashboardGrant, dashboard)).dashboard.id).toBe(dashboard);
    await expect(dashboards.readable(cardGrant, dashboard)).rejects.toBeInstanceOf(ForbiddenError);
    // Sensitive values are an admin's; a grant is never one.
    const admin = { id: 1, isSuperuser: true, groupIds: [] };
    await expect(app.get(FieldValuesService).values(admin, password)).resolves.toMatchObject({ field_id: password });
    await expect(app.get(FieldValuesService).values(cardGrant, password)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(app.get(FieldDataService).search(cardGrant, password, password, 'a')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(app.get(MetadataAccess).field(cardGrant, category, 'write')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(app.get(MetadataAccess).field(cardGrant, category, 'read')).resolves.toMatchObject({ field: { id: category } });
  });
});
