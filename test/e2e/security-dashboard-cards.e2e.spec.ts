import { makeCard, makeCollection, nativeQuery, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

interface Dashcard {
  id: number;
  card_id: number | null;
  card: Record<string, unknown> | null;
  series: Array<Record<string, unknown>>;
  parameter_mappings: unknown[];
  visualization_settings: Record<string, unknown>;
}

/**
 * Issue 30, finding 7: Bob's `GET /api/dashboard/3` showed, for a card in a collection he cannot read, its name,
 * collection, creator and query type (34 keys), and a series card's too. As Metabase does (hide-unreadable-cards),
 * such a card is only `{id}`, as the dashcard's card and in its series; the dashcard's own layout, parameter
 * mappings and visualization settings stay.
 */
describe('dashboards show only the id of cards the caller cannot read (issue 30)', () => {
  let s: SampleApp;
  let dashId: number;
  let open: { id: number };
  let secret: { id: number };
  let secretSeries: { id: number };
  const http = () => s.t.http();
  const SECRET_NAMES = ['Secret revenue 7f3', 'Secret series 7f3'];
  const mapping = (cardId: number) => ({
    parameter_id: 'p1',
    card_id: cardId,
    target: ['dimension', ['field', s.field('PEOPLE', 'STATE'), null]],
  });
  const settings = { 'card.title': 'Shown title' };
  const byCard = (dashcards: Dashcard[], cardId: number) => dashcards.find((d) => d.card_id === cardId)!;

  beforeAll(async () => {
    s = await startSampleApp();
    const secretColl = await makeCollection(s.t, 'Secret');
    open = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS ONE'), { name: 'Open card', display: 'line' });
    secret = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id), {
      name: SECRET_NAMES[0],
      collection_id: secretColl,
      display: 'line',
    });
    secretSeries = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id), {
      name: SECRET_NAMES[1],
      collection_id: secretColl,
      display: 'line',
    });
    const d = await makeDashboard(s.t, s.admin, { parameters: [{ id: 'p1', name: 'State', slug: 'state', type: 'string/=' }] });
    dashId = d.id;
    const dashcards = [
      newDashcard(-1, open.id, { series: [{ id: secretSeries.id }] }),
      newDashcard(-2, secret.id, {
        row: 4,
        parameter_mappings: [mapping(secret.id)],
        visualization_settings: settings,
        series: [{ id: open.id }],
      }),
    ];
    await http().put(`/api/dashboard/${dashId}`).set(auth(s.admin)).send({ dashcards }).expect(200);
  });
  afterAll(() => s.t.close());

  it('answers GET /api/dashboard/:id with {id} for an unreadable card and series card (the replayed request)', async () => {
    const body = (await http().get(`/api/dashboard/${dashId}`).set(auth(s.user.session)).expect(200)).body;
    const hidden = byCard(body.dashcards, secret.id);
    expect(hidden.card).toEqual({ id: secret.id });
    expect(hidden.series).toEqual([expect.objectContaining({ id: open.id, name: 'Open card' })]);
    // What Metabase leaves of the dashcard itself.
    expect(hidden.parameter_mappings).toEqual([mapping(secret.id)]);
    expect(hidden.visualization_settings).toEqual(settings);
    const shown = byCard(body.dashcards, open.id);
    expect(shown.card).toMatchObject({ id: open.id, name: 'Open card', dataset_query: expect.any(Object) });
    expect(shown.series).toEqual([{ id: secretSeries.id }]);
    for (const name of SECRET_NAMES) expect(JSON.stringify(body)).not.toContain(name);
  });

  it('shows the whole cards to a caller who may read them', async () => {
    const body = (await http().get(`/api/dashboard/${dashId}`).set(auth(s.admin)).expect(200)).body;
    expect(byCard(body.dashcards, secret.id).card).toMatchObject({
      id: secret.id,
      name: SECRET_NAMES[0],
      collection_id: expect.any(Number),
    });
    expect(byCard(body.dashcards, open.id).series).toEqual([expect.objectContaining({ id: secretSeries.id, name: SECRET_NAMES[1] })]);
  });

  it('hides them in the answer of a write, in query_metadata and in the revisions too', async () => {
    const put = (
      await http().put(`/api/dashboard/${dashId}`).set(auth(s.user.session)).send({ description: 'Edited by a reader of Root' }).expect(200)
    ).body;
    expect(byCard(put.dashcards, secret.id).card).toEqual({ id: secret.id });
    expect(byCard(put.dashcards, open.id).series).toEqual([{ id: secretSeries.id }]);
    const meta = (await http().get(`/api/dashboard/${dashId}/query_metadata`).set(auth(s.user.session)).expect(200)).body;
    expect(meta.tables.map((t: { id: unknown }) => t.id)).not.toContain(s.table('PEOPLE').id);
    const adminMeta = (await http().get(`/api/dashboard/${dashId}/query_metadata`).set(auth(s.admin)).expect(200)).body;
    expect(adminMeta.tables.map((t: { id: unknown }) => t.id)).toContain(s.table('PEOPLE').id);
    const revisions = (await http().get(`/api/dashboard/${dashId}/revisions`).set(auth(s.user.session)).expect(200)).body;
    expect(revisions.length).toBeGreaterThan(0);
    for (const text of [JSON.stringify(meta), JSON.stringify(revisions)]) for (const name of SECRET_NAMES) expect(text).not.toContain(name);
  });
});
