import type { Response } from 'supertest';
import { PAIR_NOT_ALLOWED } from '../../src/modules/public-sharing/shared-fields.service';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { expect403, expectMessage, FORBIDDEN } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { waitForSync } from '../support/sync-wait';
import { cardToken, dashToken, embeddable, setEmbedding, sign } from './embed-helpers';

jest.setTimeout(180_000);

type Kind = 'orders' | 'source' | 'person';

/** A surface a shared object's look-ups are reached through: its path prefix and its answer to a refusal. */
interface Surface {
  name: string;
  prefix: string;
  /** 400 with the surface's text for a disallowed pair; `forbidden` for a sensitive or retired field. */
  refused(res: Response, why: 'pair' | 'forbidden'): void;
}

/**
 * Issue 30, finding 1: the field look-ups of public and signed-embed cards and dashboards (`field/:id/search/:id2`,
 * `field/:id/remapping/:id2`, `field/:id/values`) pair a parameter's field only with itself, its dimension's
 * human-readable field, or (for a primary key) a Name field of its table; anything else is 400, so no other column of a
 * related table can be read. Sensitive and retired fields are never read. The authenticated twins refuse a second
 * field the caller has no data access to.
 */
describe('security: field look-ups of shared objects (issue 30, finding 1)', () => {
  let s: SampleApp;
  const f: Record<string, number> = {};
  const cards = {} as Record<Kind, number>;
  const publicCards = {} as Record<Kind, string>;
  let dashboard: number;
  let publicDashboard: string;
  const http = () => s.t.http();
  const native = async (sql: string) =>
    (
      await http()
        .post('/api/dataset')
        .set(auth(s.admin))
        .send({ database: s.db, type: 'native', native: { query: sql } })
        .expect(202)
    ).body.data.rows;
  const whitelist = { user_id: 'enabled', source: 'enabled', person: 'enabled' };

  const publicRefused = (res: Response) => expect([res.status, res.text]).toEqual([400, 'An error occurred.']);
  const embedRefused = (res: Response, why: 'pair' | 'forbidden') =>
    expect([res.status, res.text]).toEqual([400, why === 'pair' ? PAIR_NOT_ALLOWED : FORBIDDEN]);

  /** The four surfaces a look-up on a parameter of `kind` is reachable through. */
  const surfaces = (kind: Kind): Surface[] => [
    { name: 'public card', prefix: `/api/public/card/${publicCards[kind]}`, refused: publicRefused },
    { name: 'public dashboard', prefix: `/api/public/dashboard/${publicDashboard}`, refused: publicRefused },
    { name: 'signed embed card', prefix: `/api/embed/card/${cardToken(cards[kind])}`, refused: embedRefused },
    { name: 'signed embed dashboard', prefix: `/api/embed/dashboard/${dashToken(dashboard)}`, refused: embedRefused },
  ];
  const get = (path: string, query: Record<string, string> = {}) => http().get(path).query(query);
  const setDimension = (fieldId: number, human: number) =>
    http()
      .post(`/api/field/${fieldId}/dimension`)
      .set(auth(s.admin))
      .send({ type: 'external', name: 'Shown as', human_readable_field_id: human })
      .expect(200);
  const dropDimension = (fieldId: number) => http().delete(`/api/field/${fieldId}/dimension`).set(auth(s.admin)).expect(204);
  const setVisibility = (fieldId: number, visibility: string) =>
    http().put(`/api/field/${fieldId}`).set(auth(s.admin)).send({ visibility_type: visibility }).expect(200);
  const paramFields = async (kind: Kind) => (await get(`/api/public/card/${publicCards[kind]}`).expect(200)).body.param_fields;

  beforeAll(async () => {
    s = await startSampleApp();
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    await setEmbedding(s.t, s.admin);
    for (const [key, table, name] of [
      ['userId', 'ORDERS', 'USER_ID'],
      ['peopleId', 'PEOPLE', 'ID'],
      ['email', 'PEOPLE', 'EMAIL'],
      ['name', 'PEOPLE', 'NAME'],
      ['address', 'PEOPLE', 'ADDRESS'],
      ['birthDate', 'PEOPLE', 'BIRTH_DATE'],
      ['source', 'PEOPLE', 'SOURCE'],
      ['password', 'PEOPLE', 'PASSWORD'],
    ] as const) {
      f[key] = s.field(table, name);
    }
    // The set-up: "Orders total" filters ORDERS.USER_ID; others filter PEOPLE.SOURCE and PEOPLE.ID.
    const defs: Array<[Kind, string, string, number, string]> = [
      ['orders', 'ORDERS', 'user_id', f.userId, 'id'],
      ['source', 'PEOPLE', 'source', f.source, 'string/='],
      ['person', 'PEOPLE', 'person', f.peopleId, 'id'],
    ];
    const mappings: Array<Record<string, unknown>> = [];
    for (const [kind, table, slug, field, type] of defs) {
      const parameters = [{ id: slug, name: slug, slug, type, target: ['dimension', ['field', field, null]] }];
      cards[kind] = (
        await makeCard(s.t, s.admin, tableQuery(s.db, s.table(table).id, { aggregation: [['count']] }), { name: `By ${slug}`, parameters })
      ).id;
      publicCards[kind] = (await http().post(`/api/card/${cards[kind]}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
      await embeddable(s.t, s.admin, 'card', cards[kind], { [slug]: 'enabled' });
      mappings.push({ parameter_id: slug, card_id: cards[kind], target: ['dimension', ['field', field, null]] });
    }
    const d = await makeDashboard(s.t, s.admin, { parameters: defs.map(([, , slug, , type]) => ({ id: slug, name: slug, slug, type })) });
    const dashcards = defs.map(([kind], i) =>
      newDashcard(-(i + 1), cards[kind], { row: i * 4, parameter_mappings: mappings.filter((m) => m.card_id === cards[kind]) }),
    );
    await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ dashcards }).expect(200);
    dashboard = d.id;
    publicDashboard = (await http().post(`/api/dashboard/${d.id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
    await embeddable(s.t, s.admin, 'dashboard', dashboard, whitelist);
  });
  afterAll(() => s.t.close());

  it("refuses the issue's requests: another column of the table a parameter's foreign key points to", async () => {
    for (const surface of surfaces('orders')) {
      for (const other of [f.email, f.address, f.birthDate]) {
        surface.refused(await get(`${surface.prefix}/field/${f.userId}/remapping/${other}`, { value: '1' }), 'pair');
        surface.refused(await get(`${surface.prefix}/field/${f.userId}/search/${other}`, { value: 'a' }), 'pair');
      }
      // Without a dimension a foreign key is not paired with the name of the row it points to either (as Metabase).
      surface.refused(await get(`${surface.prefix}/field/${f.userId}/search/${f.name}`, { value: 'a' }), 'pair');
    }
  });

  it("refuses the issue's requests: another column of a parameter's own table", async () => {
    for (const surface of surfaces('source')) {
      surface.refused(await get(`${surface.prefix}/field/${f.source}/search/${f.name}`, { value: 'a', limit: '3' }), 'pair');
      surface.refused(await get(`${surface.prefix}/field/${f.source}/remapping/${f.email}`, { value: 'Google' }), 'pair');
    }
    for (const surface of surfaces('person')) {
      // A primary key may be shown as its table's Name field, and as nothing else.
      surface.refused(await get(`${surface.prefix}/field/${f.peopleId}/remapping/${f.email}`, { value: '1' }), 'pair');
      surface.refused(await get(`${surface.prefix}/field/${f.peopleId}/search/${f.address}`, { value: 'a' }), 'pair');
    }
  });

  it('still pairs a field with itself', async () => {
    for (const surface of surfaces('source')) {
      expect((await get(`${surface.prefix}/field/${f.source}/search/${f.source}`, { value: 'goo' }).expect(200)).body).toEqual([
        ['Google', 'Google'],
      ]);
      expect((await get(`${surface.prefix}/field/${f.source}/remapping/${f.source}`, { value: 'Google' }).expect(200)).body).toEqual([
        'Google',
        'Google',
      ]);
      expect((await get(`${surface.prefix}/field/${f.source}/values`).expect(200)).body.field_id).toBe(f.source);
    }
  });

  it("pairs a primary key with its table's Name field, which param_fields advertises as name_field", async () => {
    const [[name]] = await native('SELECT NAME FROM PEOPLE WHERE ID = 1');
    const starting = await native("SELECT ID, NAME FROM PEOPLE WHERE LOWER(NAME) LIKE 'a%' ORDER BY NAME, ID LIMIT 3");
    expect((await paramFields('person'))[String(f.peopleId)]).toMatchObject({ name_field: { id: f.name, name: 'NAME' }, dimensions: [] });
    for (const surface of surfaces('person')) {
      expect((await get(`${surface.prefix}/field/${f.peopleId}/remapping/${f.name}`, { value: '1' }).expect(200)).body).toEqual([1, name]);
      expect((await get(`${surface.prefix}/field/${f.peopleId}/search/${f.name}`, { value: 'a', limit: '3' }).expect(200)).body).toEqual(
        starting,
      );
    }
  });

  it("pairs a foreign key with its dimension's human-readable field, as param_fields advertises it", async () => {
    // Without a dimension nothing is advertised for a foreign key, and nothing is accepted (the first test).
    expect((await paramFields('orders'))[String(f.userId)]).toMatchObject({ dimensions: [], name_field: null });
    await setDimension(f.userId, f.name);
    try {
      const shown = (await paramFields('orders'))[String(f.userId)];
      expect(shown.dimensions).toEqual([
        expect.objectContaining({
          type: 'external',
          human_readable_field_id: f.name,
          human_readable_field: expect.objectContaining({ id: f.name, name: 'NAME' }),
        }),
      ]);
      const [[name]] = await native('SELECT NAME FROM PEOPLE WHERE ID = 1');
      for (const surface of surfaces('orders')) {
        expect((await get(`${surface.prefix}/field/${f.userId}/remapping/${f.name}`, { value: '1' }).expect(200)).body).toEqual([1, name]);
        const found = (await get(`${surface.prefix}/field/${f.userId}/search/${f.name}`, { value: 'a', limit: '3' }).expect(200)).body;
        expect(found).toHaveLength(3);
        for (const [id, n] of found) expect([typeof id, String(n).toLowerCase().startsWith('a')]).toEqual(['number', true]);
        // The dimension opens its own field only.
        surface.refused(await get(`${surface.prefix}/field/${f.userId}/remapping/${f.email}`, { value: '1' }), 'pair');
      }
    } finally {
      await dropDimension(f.userId);
    }
  });

  it('never reads a sensitive or retired field, not even as a configured remapping', async () => {
    await setVisibility(f.password, 'sensitive');
    await setDimension(f.userId, f.password);
    try {
      expect((await paramFields('orders'))[String(f.userId)].dimensions).toEqual([]);
      for (const surface of surfaces('orders')) {
        surface.refused(await get(`${surface.prefix}/field/${f.userId}/remapping/${f.password}`, { value: '1' }), 'forbidden');
        surface.refused(await get(`${surface.prefix}/field/${f.userId}/search/${f.password}`, { value: 'a' }), 'forbidden');
      }
    } finally {
      await dropDimension(f.userId);
    }
    await setVisibility(f.name, 'retired');
    try {
      expect((await paramFields('person'))[String(f.peopleId)].name_field).toBeNull();
      for (const surface of surfaces('person'))
        surface.refused(await get(`${surface.prefix}/field/${f.peopleId}/remapping/${f.name}`, { value: '1' }), 'forbidden');
    } finally {
      await setVisibility(f.name, 'normal');
    }
    await setVisibility(f.source, 'retired');
    try {
      expect(await paramFields('source')).toEqual({});
      for (const surface of surfaces('source'))
        surface.refused(await get(`${surface.prefix}/field/${f.source}/search/${f.source}`, { value: 'goo' }), 'forbidden');
    } finally {
      await setVisibility(f.source, 'normal');
    }
  });

  it('an admin preview of an embed has no field look-ups to open', async () => {
    const token = sign({ resource: { question: cards.orders }, params: {}, _embedding_params: { user_id: 'enabled' } });
    const res = await http()
      .get(`/api/preview-embed/card/${token}/field/${f.userId}/remapping/${f.email}`)
      .query({ value: '1' })
      .set(auth(s.admin));
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('@');
  });

  describe('authenticated: GET /api/field/:id/search/:search-id and /remapping/:remapped-id', () => {
    let other: E2eWarehouse;
    let otherDb: number;
    let otherField: number;

    beforeAll(async () => {
      // A second database the user may not read, with a table of the same shape as PEOPLE.
      other = await e2eWarehouse('sqlite', s.t.config.dataDir, {
        statements: ['CREATE TABLE PEOPLE (ID INTEGER PRIMARY KEY, EMAIL TEXT)', "INSERT INTO PEOPLE VALUES (1, 'x@example.com')"],
      });
      otherDb = (
        await http().post('/api/database').set(auth(s.admin)).send({ engine: 'sqlite', name: 'Other', details: other.details }).expect(200)
      ).body.id;
      await waitForSync(s.t, s.admin, otherDb);
      const meta = (await http().get(`/api/database/${otherDb}/metadata`).set(auth(s.admin)).expect(200)).body;
      otherField = meta.tables[0].fields.find((x: { name: string }) => x.name === 'EMAIL').id;
      const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
      const groups = Object.fromEntries(
        Object.keys(graph.groups)
          .filter((g) => g !== '2')
          .map((g) => [g, { [otherDb]: { data: 'no', native: 'none' } }]),
      );
      await http().put('/api/permissions/graph').set(auth(s.admin)).send({ revision: graph.revision, groups }).expect(200);
    });
    afterAll(() => other?.drop());

    it('refuses a second field the caller has no data access to, though the first is readable', async () => {
      const user = s.user.session;
      await http().get(`/api/field/${f.peopleId}/search/${f.name}`).query({ value: 'a' }).set(auth(user)).expect(200);
      expect403(await http().get(`/api/field/${f.peopleId}/search/${otherField}`).query({ value: 'x' }).set(auth(user)));
      expect403(await http().get(`/api/field/${f.peopleId}/remapping/${otherField}`).query({ value: '1' }).set(auth(user)));
      // An admin may read both, and is told they are unrelated.
      const why = 'The second field must belong to the same table as the first, or to the table its foreign key points to.';
      expectMessage(await http().get(`/api/field/${f.peopleId}/remapping/${otherField}`).query({ value: '1' }).set(auth(s.admin)), why);
    });
  });
});
