import type { Response } from 'supertest';
import { grant, makeCard, makeCollection, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { expect400, expect401, expect403, expectMessage } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { cardToken, dashToken, embeddable, expectEmbed400, setEmbedding, sign } from './embed-helpers';

jest.setTimeout(180_000);

/**
 * Issue 31, item 5: GET .../params/:param-key/remapping?value=... on cards and dashboards, authenticated, public,
 * signed embed and admin preview: `[value, display]` when the parameter's values have a display value (a static
 * list's label, stored human-readable values, a foreign key's or primary key's Name field), else `[value]`.
 */
describe('parameter remapping endpoints (issue 31, item 5)', () => {
  let s: SampleApp;
  const f: Record<string, number> = {};
  let orders: number;
  let products: number;
  let dash: number;
  let publicOrders: string;
  let publicProducts: string;
  let publicDash: string;
  let name1: string;
  const http = () => s.t.http();
  const native = async (sql: string) =>
    (
      await http()
        .post('/api/dataset')
        .set(auth(s.admin))
        .send({ database: s.db, type: 'native', native: { query: sql } })
        .expect(202)
    ).body.data.rows;
  const whitelist = { user_id: 'enabled', product_id: 'enabled', category: 'enabled', label: 'enabled', person: 'enabled' };
  const staticList = { values_source_type: 'static-list', values_source_config: { values: [['Gizmo', 'Gadgety things'], ['Widget']] } };
  const param = (slug: string, type: string, field: number, extra: object = {}) => ({
    id: slug,
    name: slug,
    slug,
    type,
    target: ['dimension', ['field', field, null]],
    ...extra,
  });
  const remap = (path: string, value: string, session?: string) => {
    const req = http().get(`${path}/remapping`).query({ value });
    return session ? req.set(auth(session)) : req;
  };

  /** Where each card parameter's remapping is served, and who calls: every surface answers alike. */
  const cardSurfaces = (card: 'orders' | 'products') => {
    const id = card === 'orders' ? orders : products;
    return [
      { path: (k: string) => `/api/card/${id}/params/${k}`, session: s.user.session },
      { path: (k: string) => `/api/public/card/${card === 'orders' ? publicOrders : publicProducts}/params/${k}` },
      { path: (k: string) => `/api/embed/card/${cardToken(id)}/params/${k}` },
      {
        path: (k: string) =>
          `/api/preview-embed/card/${sign({ resource: { question: id }, params: {}, _embedding_params: whitelist })}/params/${k}`,
        session: s.admin,
      },
    ];
  };
  const dashSurfaces = () => [
    { path: (k: string) => `/api/dashboard/${dash}/params/${k}`, session: s.user.session },
    { path: (k: string) => `/api/public/dashboard/${publicDash}/params/${k}` },
    { path: (k: string) => `/api/embed/dashboard/${dashToken(dash)}/params/${k}` },
    {
      path: (k: string) =>
        `/api/preview-embed/dashboard/${sign({ resource: { dashboard: dash }, params: {}, _embedding_params: whitelist })}/params/${k}`,
      session: s.admin,
    },
  ];
  const expectEverywhere = async (
    surfaces: Array<{ path: (k: string) => string; session?: string }>,
    key: string,
    value: string,
    expected: unknown[],
  ) => {
    for (const surface of surfaces) {
      const path = surface.path(key);
      expect([path, (await remap(path, value, surface.session)).body]).toEqual([path, expected]);
    }
  };

  beforeAll(async () => {
    s = await startSampleApp();
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    await setEmbedding(s.t, s.admin);
    for (const [key, table, name] of [
      ['userId', 'ORDERS', 'USER_ID'],
      ['productId', 'ORDERS', 'PRODUCT_ID'],
      ['peopleId', 'PEOPLE', 'ID'],
      ['email', 'PEOPLE', 'EMAIL'],
      ['category', 'PRODUCTS', 'CATEGORY'],
    ] as const) {
      f[key] = s.field(table, name);
    }
    [[name1]] = await native('SELECT NAME FROM PEOPLE WHERE ID = 1');
    // Human-readable values of CATEGORY (an internal remapping).
    await http()
      .post(`/api/field/${f.category}/values`)
      .set(auth(s.admin))
      .send({
        values: [
          ['Doohickey', 'D'],
          ['Gadget', 'Ga'],
          ['Gizmo', 'Gi'],
          ['Widget', 'W'],
        ],
      })
      .expect(200);
    const count = { aggregation: [['count']] };
    orders = (
      await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id, count), {
        parameters: [param('user_id', 'id', f.userId), param('product_id', 'id', f.productId)],
      })
    ).id;
    products = (
      await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, count), {
        parameters: [param('category', 'string/=', f.category), param('label', 'string/=', f.category, staticList)],
      })
    ).id;
    const people = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id, count))).id;
    for (const id of [orders, products])
      await embeddable(s.t, s.admin, 'card', id, Object.fromEntries(Object.entries(whitelist).filter(([k]) => k !== 'person')));
    const dp = (slug: string, type: string, extra: object = {}) => ({ id: slug, name: slug, slug, type, ...extra });
    const d = await makeDashboard(s.t, s.admin, {
      parameters: [
        dp('user_id', 'id'),
        dp('product_id', 'id'),
        dp('category', 'string/='),
        dp('label', 'string/=', staticList),
        dp('person', 'id'),
      ],
    });
    const map = (id: string, card: number, field: number) => ({
      parameter_id: id,
      card_id: card,
      target: ['dimension', ['field', field, null]],
    });
    const dashcards = [
      newDashcard(-1, orders, {
        parameter_mappings: [map('user_id', orders, f.userId), map('product_id', orders, f.productId), map('person', orders, f.userId)],
      }),
      newDashcard(-2, products, {
        row: 4,
        parameter_mappings: [map('category', products, f.category), map('label', products, f.category)],
      }),
      // `person` filters ORDERS.USER_ID and PEOPLE.ID: both keyed by PEOPLE.ID.
      newDashcard(-3, people, { row: 8, parameter_mappings: [map('person', people, f.peopleId)] }),
    ];
    await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ dashcards }).expect(200);
    dash = d.id;
    await embeddable(s.t, s.admin, 'dashboard', dash, whitelist);
    const share = async (kind: string, id: number) =>
      (await http().post(`/api/${kind}/${id}/public_link`).set(auth(s.admin)).expect(200)).body.uuid as string;
    [publicOrders, publicProducts, publicDash] = [
      await share('card', orders),
      await share('card', products),
      await share('dashboard', dash),
    ];
  });
  afterAll(() => s.t.close());

  it("shows a foreign key's value as the Name of the row it points to, and an unknown value alone", async () => {
    for (const surfaces of [cardSurfaces('orders'), dashSurfaces()]) {
      await expectEverywhere(surfaces, 'user_id', '1', [1, name1]);
      await expectEverywhere(surfaces, 'user_id', '999999', ['999999']);
      await expectEverywhere(surfaces, 'user_id', 'abc', ['abc']);
      // PRODUCTS has a Title, no Name: the value alone, typed as the field's when it occurs.
      await expectEverywhere(surfaces, 'product_id', '7', [7]);
      await expectEverywhere(surfaces, 'product_id', '999999', ['999999']);
    }
  });

  it("shows stored human-readable values, and a static list's labels", async () => {
    for (const surfaces of [cardSurfaces('products'), dashSurfaces()]) {
      await expectEverywhere(surfaces, 'category', 'Gizmo', ['Gizmo', 'Gi']);
      await expectEverywhere(surfaces, 'category', 'Nothing', ['Nothing']);
      await expectEverywhere(surfaces, 'label', 'Gizmo', ['Gizmo', 'Gadgety things']);
      await expectEverywhere(surfaces, 'label', 'Widget', ['Widget']);
    }
  });

  it('remaps a dashboard parameter on a primary key and the foreign keys to it through the key', async () => {
    await expectEverywhere(dashSurfaces(), 'person', '1', [1, name1]);
  });

  it("follows a dimension an admin configured, and never shows a sensitive field's values", async () => {
    const [[email1]] = await native('SELECT EMAIL FROM PEOPLE WHERE ID = 1');
    await http()
      .post(`/api/field/${f.userId}/dimension`)
      .set(auth(s.admin))
      .send({ type: 'external', name: 'User', human_readable_field_id: f.email })
      .expect(200);
    try {
      await expectEverywhere(cardSurfaces('orders'), 'user_id', '1', [1, email1]);
      await http().put(`/api/field/${f.email}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
      await expectEverywhere(cardSurfaces('orders'), 'user_id', '1', [1]);
    } finally {
      await http().put(`/api/field/${f.email}`).set(auth(s.admin)).send({ visibility_type: 'normal' }).expect(200);
      await http().delete(`/api/field/${f.userId}/dimension`).set(auth(s.admin)).expect(204);
    }
  });

  it('authenticated: needs a session and read access, a known parameter and a value', async () => {
    expect401(await remap(`/api/card/${orders}/params/user_id`, '1'));
    expect401(await remap(`/api/dashboard/${dash}/params/user_id`, '1'));
    const secret = await makeCollection(s.t);
    await grant(s.t, 1, secret, null);
    const hidden = (
      await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id), {
        collection_id: secret,
        parameters: [param('user_id', 'id', f.userId)],
      })
    ).id;
    const hiddenDash = (
      await makeDashboard(s.t, s.admin, { collection_id: secret, parameters: [{ id: 'user_id', name: 'U', slug: 'user_id', type: 'id' }] })
    ).id;
    expect403(await remap(`/api/card/${hidden}/params/user_id`, '1', s.user.session));
    expect403(await remap(`/api/dashboard/${hiddenDash}/params/user_id`, '1', s.user.session));
    expectMessage(
      await remap(`/api/card/${orders}/params/nope`, '1', s.user.session),
      `Card ${orders} does not have a parameter with the ID "nope".`,
    );
    expectMessage(
      await remap(`/api/dashboard/${dash}/params/nope`, '1', s.user.session),
      `Dashboard ${dash} does not have a parameter with the ID "nope".`,
    );
    expect400(
      await http().get(`/api/card/${orders}/params/user_id/remapping`).set(auth(s.user.session)),
      'value',
      'value must be a string.',
    );
    expect400(
      await http().get(`/api/dashboard/${dash}/params/user_id/remapping?value=1&value=2`).set(auth(s.user.session)),
      'value',
      'value must be a string.',
    );
  });

  it('public: the terse public errors', async () => {
    const failed = (res: Response) => expect([res.status, res.text]).toEqual([400, 'An error occurred.']);
    failed(await remap(`/api/public/card/${publicOrders}/params/nope`, '1'));
    failed(await remap(`/api/public/dashboard/${publicDash}/params/nope`, '1'));
    failed(await http().get(`/api/public/card/${publicOrders}/params/user_id/remapping`));
    const unknown = await remap('/api/public/card/5c0a3c0e-0000-4000-8000-000000000000/params/user_id', '1');
    expect([unknown.status, unknown.text]).toEqual([404, 'Not found.']);
  });

  it('reads nothing of a parameter on a sensitive field, but for an admin', async () => {
    await http().put(`/api/field/${f.productId}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
    try {
      for (const path of [`/api/public/card/${publicOrders}/params/product_id`, `/api/public/dashboard/${publicDash}/params/product_id`]) {
        const res = await remap(path, '7');
        expect([res.status, res.text]).toEqual([400, 'An error occurred.']);
      }
      expectEmbed400(await remap(`/api/embed/card/${cardToken(orders)}/params/product_id`, '7'), "You don't have permissions to do that.");
      expect403(await remap(`/api/card/${orders}/params/product_id`, '7', s.user.session));
      expect((await remap(`/api/card/${orders}/params/product_id`, '7', s.admin).expect(200)).body).toEqual([7]);
    } finally {
      await http().put(`/api/field/${f.productId}`).set(auth(s.admin)).send({ visibility_type: 'normal' }).expect(200);
    }
  });

  it("signed embed: only a parameter the viewer may set, and the token's values narrow the rows", async () => {
    const rules = { user_id: 'enabled', product_id: 'locked', category: 'disabled', label: 'enabled' };
    await embeddable(s.t, s.admin, 'card', orders, rules);
    await embeddable(s.t, s.admin, 'dashboard', dash, { ...rules, person: 'enabled' });
    try {
      const [[product]] = await native('SELECT PRODUCT_ID FROM ORDERS ORDER BY ID LIMIT 1');
      const [[buyer]] = await native(`SELECT USER_ID FROM ORDERS WHERE PRODUCT_ID = ${Number(product)} ORDER BY USER_ID LIMIT 1`);
      const [[other, otherName]] = await native(
        `SELECT ID, NAME FROM PEOPLE WHERE ID NOT IN (SELECT USER_ID FROM ORDERS WHERE PRODUCT_ID = ${Number(product)})` +
          ' ORDER BY ID LIMIT 1',
      );
      const [[buyerName]] = await native(`SELECT NAME FROM PEOPLE WHERE ID = ${Number(buyer)}`);
      for (const base of [
        `/api/embed/card/${cardToken(orders, { product_id: product })}`,
        `/api/embed/dashboard/${dashToken(dash, { product_id: product })}`,
      ]) {
        expect((await remap(`${base}/params/user_id`, String(buyer)).expect(200)).body).toEqual([buyer, buyerName]);
        // Someone who never bought the token's product: no name, though the name exists.
        expect(otherName).toBeTruthy();
        expect((await remap(`${base}/params/user_id`, String(other)).expect(200)).body).toEqual([String(other)]);
        expectEmbed400(
          await remap(`${base}/params/product_id`, '1'),
          'Cannot get remapped value for parameter: "product_id" is not an enabled parameter.',
        );
      }
      const dashBase = `/api/embed/dashboard/${dashToken(dash, { product_id: product })}`;
      expectEmbed400(
        await remap(`${dashBase}/params/category`, 'Gizmo'),
        'Cannot get remapped value for parameter: "category" is not an enabled parameter.',
      );
      expectEmbed400(
        await remap(`/api/embed/dashboard/${dashToken(dash, { product_id: product, user_id: 1 })}/params/user_id`, '1'),
        'You can\'t specify a value for "user_id" if it\'s already set in the JWT.',
      );
      expectEmbed400(
        await remap(`/api/embed/card/${cardToken(orders, {})}/params/user_id`, '1'),
        'You must specify a value for product_id in the JWT.',
      );
    } finally {
      await embeddable(s.t, s.admin, 'card', orders, Object.fromEntries(Object.entries(whitelist).filter(([k]) => k !== 'person')));
      await embeddable(s.t, s.admin, 'dashboard', dash, whitelist);
    }
  });

  it('admin preview: admins only, with the whitelist of the token', async () => {
    const token = sign({ resource: { dashboard: dash }, params: {}, _embedding_params: { user_id: 'disabled' } });
    expect403(await remap(`/api/preview-embed/dashboard/${token}/params/user_id`, '1', s.user.session));
    // The preview answers in the API's usual shape (an admin's page, not the embed surface).
    expectMessage(
      await remap(`/api/preview-embed/dashboard/${token}/params/user_id`, '1', s.admin),
      'Cannot get remapped value for parameter: "user_id" is not an enabled parameter.',
    );
  });
});
