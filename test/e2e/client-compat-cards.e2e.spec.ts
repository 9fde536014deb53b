import { grant, makeCard, makeCollection, makeGroup, tableQuery } from '../support/card-factories';
import { dashboardWith, makeDashboard, newDashcard } from '../support/dashboard-factories';
import { expect403, expect404 } from '../support/expect-wire';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/**
 * Issue 31, items 4 and 6: GET /api/card/:id/dashboards and the bulk endpoints POST /api/cards/move and
 * /api/cards/dashboards, with Metabase's answers and its collection permission rules.
 */
describe('card endpoints of Metabase clients', () => {
  let s: SampleApp;
  let writer: MadeUser;
  let reader: MadeUser;
  let outsider: MadeUser;
  let shared: number;
  let readOnly: number;
  let orders: number;
  const http = () => s.t.http();
  const card = (extra: Record<string, unknown> = {}) => makeCard(s.t, s.admin, tableQuery(s.db, orders), extra);
  const collectionOf = async (id: number) => (await http().get(`/api/card/${id}`).set(auth(s.admin)).expect(200)).body.collection_id;

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    [writer, reader, outsider] = [await makeUserDirect(s.t), await makeUserDirect(s.t), await makeUserDirect(s.t)];
    shared = await makeCollection(s.t, 'Shared');
    readOnly = await makeCollection(s.t, 'Read only');
    const writers = await makeGroup(s.t, s.admin, writer.id);
    const readers = await makeGroup(s.t, s.admin, reader.id);
    await grant(s.t, writers, shared, 'write');
    await grant(s.t, writers, readOnly, 'read');
    await grant(s.t, readers, shared, 'read');
    // Only the admin (and members of the groups above) may touch the Root collection here.
    await grant(s.t, 1, null, 'read');
  });
  afterAll(() => s.t.close());

  describe('GET /api/card/:id/dashboards', () => {
    it('lists {id, name} of every dashboard showing the card, as a dashcard or a series, archived ones included', async () => {
      const c = await card({ collection_id: shared });
      const other = await card({ collection_id: shared });
      const first = await dashboardWith(s.t, s.admin, [c.id], { name: 'First', collection_id: shared });
      const second = await makeDashboard(s.t, s.admin, { name: 'Second', collection_id: shared });
      await http()
        .put(`/api/dashboard/${second.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [newDashcard(-1, other.id, { series: [c.id] })] })
        .expect(200);
      const archived = await dashboardWith(s.t, s.admin, [c.id, c.id], { name: 'Old', collection_id: shared });
      await http().put(`/api/dashboard/${archived.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
      await dashboardWith(s.t, s.admin, [other.id], { name: 'Unrelated', collection_id: shared });
      const listed = (await http().get(`/api/card/${c.id}/dashboards`).set(auth(writer.session)).expect(200)).body;
      expect(listed).toEqual([
        { id: first.id, name: 'First' },
        { id: second.id, name: 'Second' },
        { id: archived.id, name: 'Old' },
      ]);
      expect(
        (
          await http()
            .get(`/api/card/${(await card({ collection_id: shared })).id}/dashboards`)
            .set(auth(writer.session))
            .expect(200)
        ).body,
      ).toEqual([]);
    });

    it('needs the card readable and every dashboard writable (403), and an existing card (404)', async () => {
      const c = await card({ collection_id: shared });
      await dashboardWith(s.t, s.admin, [c.id], { collection_id: readOnly });
      expect403(await http().get(`/api/card/${c.id}/dashboards`).set(auth(writer.session)));
      expect403(await http().get(`/api/card/${c.id}/dashboards`).set(auth(outsider.session)));
      expect(await http().get(`/api/card/${c.id}/dashboards`).set(auth(s.admin)).expect(200)).toBeTruthy();
      expect404(await http().get('/api/card/987654/dashboards').set(auth(s.admin)));
    });
  });

  describe('POST /api/cards/move', () => {
    it('moves the cards to the collection and answers {status: "success"}; null is the Root', async () => {
      const [a, b] = [await card({ collection_id: readOnly }), await card({ collection_id: readOnly })];
      const moved = await http()
        .post('/api/cards/move')
        .set(auth(s.admin))
        .send({ card_ids: [a.id, b.id], collection_id: shared })
        .expect(200);
      expect(moved.body).toEqual({ status: 'success' });
      expect([await collectionOf(a.id), await collectionOf(b.id)]).toEqual([shared, shared]);
      await http()
        .post('/api/cards/move')
        .set(auth(s.admin))
        .send({ card_ids: [a.id], collection_id: null })
        .expect(200);
      expect(await collectionOf(a.id)).toBeNull();
      // Without collection_id nothing moves.
      expect(
        (
          await http()
            .post('/api/cards/move')
            .set(auth(s.admin))
            .send({ card_ids: [b.id] })
            .expect(200)
        ).body,
      ).toEqual({ status: 'success' });
      expect(await collectionOf(b.id)).toBe(shared);
    });

    it('needs write access to each card and to the target, and moves all or none', async () => {
      const mine = await card({ collection_id: shared });
      const notMine = await card({ collection_id: readOnly });
      expect403(
        await http()
          .post('/api/cards/move')
          .set(auth(writer.session))
          .send({ card_ids: [mine.id, notMine.id], collection_id: shared }),
      );
      expect(await collectionOf(mine.id)).toBe(shared);
      expect403(
        await http()
          .post('/api/cards/move')
          .set(auth(writer.session))
          .send({ card_ids: [mine.id], collection_id: readOnly }),
      );
      expect403(
        await http()
          .post('/api/cards/move')
          .set(auth(reader.session))
          .send({ card_ids: [mine.id], collection_id: shared }),
      );
      expect403(
        await http()
          .post('/api/cards/move')
          .set(auth(reader.session))
          .send({ card_ids: [mine.id] }),
      );
      expect404(
        await http()
          .post('/api/cards/move')
          .set(auth(s.admin))
          .send({ card_ids: [mine.id, 987654], collection_id: readOnly }),
      );
      expect(await collectionOf(mine.id)).toBe(shared);
      await http()
        .post('/api/cards/move')
        .set(auth(writer.session))
        .send({ card_ids: [mine.id], collection_id: shared })
        .expect(200);
    });

    it('refuses malformed bodies and moves into a dashboard, with a clear 400', async () => {
      const c = await card({ collection_id: shared });
      const noIds = await http().post('/api/cards/move').set(auth(s.admin)).send({ collection_id: shared });
      expect([noIds.status, Object.keys(noIds.body.errors)]).toEqual([400, ['card_ids']]);
      const badTarget = await http()
        .post('/api/cards/move')
        .set(auth(s.admin))
        .send({ card_ids: [c.id], collection_id: 'x' });
      expect([badTarget.status, Object.keys(badTarget.body.errors)]).toEqual([400, ['collection_id']]);
      const intoDashboard = await http()
        .post('/api/cards/move')
        .set(auth(s.admin))
        .send({ card_ids: [c.id], dashboard_id: 1 });
      expect([intoDashboard.status, intoDashboard.body]).toEqual([400, { message: 'Moving questions into a dashboard is not supported.' }]);
    });
  });

  describe('POST /api/cards/dashboards', () => {
    it("lists each card's dashboards, flagged when the caller may not change or read them", async () => {
      const c = await card({ collection_id: shared });
      const lonely = await card({ collection_id: shared });
      const writable = await dashboardWith(s.t, s.admin, [c.id], { name: 'Writable', collection_id: shared });
      const readable = await dashboardWith(s.t, s.admin, [c.id], { name: 'Readable', collection_id: readOnly });
      const hidden = await makeCollection(s.t, 'Hidden');
      await dashboardWith(s.t, s.admin, [c.id], { name: 'Secret name', collection_id: hidden });
      const res = (
        await http()
          .post('/api/cards/dashboards')
          .set(auth(writer.session))
          .send({ card_ids: [lonely.id, c.id] })
          .expect(200)
      ).body;
      expect(res).toEqual([
        { card_id: lonely.id, dashboards: [] },
        {
          card_id: c.id,
          dashboards: [
            { id: writable.id, name: 'Writable' },
            { id: readable.id, name: 'Readable', error: 'unwritable-dashboard' },
            { error: 'unreadable-dashboard' },
          ],
        },
      ]);
      expect(JSON.stringify(res)).not.toContain('Secret name');
      const bad = await http()
        .post('/api/cards/dashboards')
        .set(auth(writer.session))
        .send({ card_ids: ['x'] });
      expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['card_ids']]);
    });
  });
});
