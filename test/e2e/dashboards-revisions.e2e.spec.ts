import { makeCard, makeCollection, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { expect400, expect403, expect404 } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

interface Rev {
  id: number;
  description: string | null;
  is_creation: boolean;
  is_reversion: boolean;
  most_recent: boolean;
}

/** Every dashboard change keeps a revision with its dashcards and tabs; revert restores them as a new revision. */
describe('dashboards: revisions', () => {
  let s: SampleApp;
  let orders: number;
  const http = () => s.t.http();

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
  });
  afterAll(() => s.t.close());

  it('lists revisions newest first with Metabase sentences, the same as GET /api/revision', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await makeDashboard(s.t, s.admin, { name: 'First' });
    await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ name: 'Second' }).expect(200);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, a.id)] })
      .expect(200);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ tabs: [{ id: -1, name: 'T' }] })
      .expect(200);
    const list = await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200);
    const revs = list.body as Rev[];
    expect(revs.map((r) => r.description)).toEqual([
      'added a tab.',
      'added a card.',
      'renamed this Dashboard from "First" to "Second".',
      'created this.',
    ]);
    expect(revs[0]).toMatchObject({ most_recent: true, is_creation: false, user: expect.objectContaining({ common_name: 'Ada Admin' }) });
    expect(revs[3].is_creation).toBe(true);
    const same = await http().get(`/api/revision?entity=dashboard&id=${d.id}`).set(auth(s.admin)).expect(200);
    expect(same.body).toEqual(list.body);
  });

  it('reverts to an earlier revision, restoring its tabs and dashcards as a new revision', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const b = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await makeDashboard(s.t, s.admin, { name: 'Layout' });
    const laid = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({
        tabs: [
          { id: -1, name: 'Alpha' },
          { id: -2, name: 'Beta' },
        ],
        dashcards: [
          newDashcard(-1, a.id, { dashboard_tab_id: -1, series: [{ id: b.id }], size_x: 7 }),
          newDashcard(-2, b.id, { dashboard_tab_id: -2, row: 3 }),
        ],
      })
      .expect(200);
    const wanted = (await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200)).body[0] as Rev;
    // Everything changes: one tab removed (with its dashcard), a dashcard resized, the name changed.
    const dcA = laid.body.dashcards.find((x: { card_id: number }) => x.card_id === a.id);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ name: 'Changed', tabs: [{ id: laid.body.tabs[0].id, name: 'Alpha' }], dashcards: [{ ...dcA, size_x: 2, series: [] }] })
      .expect(200);
    const changed = await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200);
    expect(changed.body.tabs).toHaveLength(1);
    expect(changed.body.dashcards).toHaveLength(1);

    const reverted = await http().post(`/api/dashboard/${d.id}/revert`).set(auth(s.admin)).send({ revision_id: wanted.id }).expect(200);
    expect(reverted.body).toMatchObject({ is_reversion: true, most_recent: true });
    const back = await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200);
    expect(back.body.name).toBe('Layout');
    expect(back.body.tabs.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'Beta']);
    expect(back.body.tabs[0].id).toBe(laid.body.tabs[0].id);
    const byCard = (id: number) => back.body.dashcards.find((x: { card_id: number }) => x.card_id === id);
    expect(byCard(a.id)).toMatchObject({
      id: dcA.id,
      size_x: 7,
      dashboard_tab_id: laid.body.tabs[0].id,
      series: [expect.objectContaining({ id: b.id })],
    });
    expect(byCard(b.id)).toMatchObject({ row: 3, dashboard_tab_id: back.body.tabs[1].id });
    const revs = (await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200)).body as Rev[];
    expect(revs[0]).toMatchObject({ is_reversion: true });
    expect(revs).toHaveLength(4);
  });

  it('reverts the documentation columns, and a layout that took a foreign positive dashcard id', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const other = await makeDashboard(s.t, s.admin);
    const foreign = (
      await http()
        .put(`/api/dashboard/${other.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [newDashcard(-1, a.id)] })
        .expect(200)
    ).body.dashcards[0];
    const d = await makeDashboard(s.t, s.admin);
    const created = (await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200)).body[0] as Rev;
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ caveats: 'Draft', points_of_interest: 'Totals', position: 2 })
      .expect(200);
    const documented = (await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200)).body[0] as Rev;
    // A dashcard sent with another dashboard's id lands here under a fresh id.
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ caveats: 'Final', dashcards: [{ ...foreign, row: 5 }] })
      .expect(200);
    const mine = put.body.dashcards[0];
    expect(mine.id).not.toBe(foreign.id);
    const laid = (await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200)).body[0] as Rev;

    await http().post(`/api/dashboard/${d.id}/revert`).set(auth(s.admin)).send({ revision_id: documented.id }).expect(200);
    let back = (await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body;
    expect(back).toMatchObject({ caveats: 'Draft', points_of_interest: 'Totals', position: 2, dashcards: [] });
    await http().post(`/api/dashboard/${d.id}/revert`).set(auth(s.admin)).send({ revision_id: laid.id }).expect(200);
    back = (await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body;
    expect(back).toMatchObject({ caveats: 'Final', dashcards: [expect.objectContaining({ card_id: a.id, row: 5, dashboard_id: d.id })] });
    await http().post(`/api/dashboard/${d.id}/revert`).set(auth(s.admin)).send({ revision_id: created.id }).expect(200);
    back = (await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body;
    expect(back).toMatchObject({ caveats: null, points_of_interest: null, position: null, dashcards: [] });
    // The other dashboard never moved.
    expect((await http().get(`/api/dashboard/${other.id}`).set(auth(s.admin)).expect(200)).body.dashcards).toEqual([
      expect.objectContaining({ id: foreign.id, row: 0 }),
    ]);
  });

  it("refuses a revert without a revision, with another object's revision, or for a reader", async () => {
    const d = await makeDashboard(s.t, s.admin);
    const other = await makeDashboard(s.t, s.admin);
    const otherRev = (await http().get(`/api/dashboard/${other.id}/revisions`).set(auth(s.admin)).expect(200)).body[0] as Rev;
    expect400(
      await http().post(`/api/dashboard/${d.id}/revert`).set(auth(s.admin)).send({}),
      'revision_id',
      'value must be an integer greater than zero.',
    );
    expect404(await http().post(`/api/dashboard/${d.id}/revert`).set(auth(s.admin)).send({ revision_id: otherRev.id }));
    expect404(await http().get('/api/dashboard/999999/revisions').set(auth(s.admin)));
    const coll = await makeCollection(s.t, 'Locked');
    const locked = await makeDashboard(s.t, s.admin, { collection_id: coll });
    const rev = (await http().get(`/api/dashboard/${locked.id}/revisions`).set(auth(s.admin)).expect(200)).body[0] as Rev;
    expect403(await http().get(`/api/dashboard/${locked.id}/revisions`).set(auth(s.user.session)));
    expect403(await http().post(`/api/dashboard/${locked.id}/revert`).set(auth(s.user.session)).send({ revision_id: rev.id }));
  });
});
