import { makeMetric, tableQuery } from '../support/card-factories';
import type { XrayDashboard } from '../support/automagic';
import { expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

/** Field ids of `["field", id, ...]` refs anywhere in `node`. */
function fieldIds(node: unknown, out = new Set<number>()): Set<number> {
  if (Array.isArray(node)) {
    if (node[0] === 'field' && typeof node[1] === 'number') out.add(node[1]);
    node.forEach((n) => fieldIds(n, out));
  } else if (node && typeof node === 'object') Object.values(node).forEach((v) => fieldIds(v, out));
  return out;
}

/**
 * Issue 30, finding 8: `GET /api/automagic-dashboards/field/13` (PEOPLE.PASSWORD, sensitive) built "Password by
 * People" for a non-admin. Sensitive and retired fields are no x-ray subject (404, as an unknown field), and no
 * dimension, filter or metric of a generated card, for anyone.
 */
describe('x-rays leave sensitive and retired fields out (issue 30)', () => {
  let s: SampleApp;
  let password: number;
  let source: number;
  const http = () => s.t.http();
  const xray = (path: string, who: string) => http().get(`/api/automagic-dashboards/${path}`).set(auth(who));
  const visibility = (id: number, value: string) =>
    http().put(`/api/field/${id}`).set(auth(s.admin)).send({ visibility_type: value }).expect(200);
  const who = () =>
    [
      ['a non-admin', s.user.session],
      ['an admin', s.admin],
    ] as const;

  beforeAll(async () => {
    s = await startSampleApp();
    password = s.field('PEOPLE', 'PASSWORD');
    source = s.field('PEOPLE', 'SOURCE');
    await visibility(password, 'sensitive');
  });
  afterAll(() => s.t.close());

  it('answers the x-ray of a sensitive field as that of an unknown field (the replayed request)', async () => {
    for (const [, session] of who()) {
      expect404(await xray(`field/${password}`, session));
      expect404(await xray(`field/${password}?show=all`, session));
      expect404(await xray(`field/${password}/query_metadata`, session));
      expect404(await xray(`field/${password}/rule/field/Category`, session));
      expect404(await xray(`field/999999`, session));
    }
  });

  it('never uses a field as a dimension once it is retired, and refuses it as the subject', async () => {
    // Before: PEOPLE.SOURCE is one of the categories the PEOPLE x-ray counts by.
    const before = (await xray(`table/${s.table('PEOPLE').id}?show=all`, s.admin).expect(200)).body as XrayDashboard;
    expect(fieldIds(before.dashcards.map((dc) => dc.card?.dataset_query)).has(source)).toBe(true);
    await visibility(source, 'retired');
    try {
      for (const [, session] of who()) {
        expect404(await xray(`field/${source}`, session));
        for (const path of [
          `table/${s.table('PEOPLE').id}?show=all`,
          `table/${s.table('ORDERS').id}?show=all`,
          `field/${s.field('PEOPLE', 'CREATED_AT')}?show=all`,
          `field/${s.field('PEOPLE', 'STATE')}?show=all`,
        ]) {
          const d = (await xray(path, session).expect(200)).body as XrayDashboard;
          const used = fieldIds([d.dashcards.map((dc) => [dc.card?.dataset_query, dc.parameter_mappings]), d.parameters]);
          expect({ path, password: used.has(password), source: used.has(source) }).toEqual({ path, password: false, source: false });
          expect(JSON.stringify(d)).not.toMatch(/Password/);
        }
      }
    } finally {
      await visibility(source, 'normal');
    }
  });

  it('refuses a cell, a legacy metric and a metric card over a sensitive field', async () => {
    const people = s.table('PEOPLE').id;
    const overPassword = [['distinct', ['field', password, null]]];
    const legacy = (
      await http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({ name: 'Passwords', table_id: people, definition: { 'source-table': people, aggregation: overPassword } })
        .expect(200)
    ).body;
    const card = await makeMetric(s.t, s.admin, tableQuery(s.db, people, { aggregation: overPassword }));
    for (const [, session] of who()) {
      expect404(await xray(`table/${people}/cell/${b64(['=', ['field', password, null], 'x'])}`, session));
      expect404(await xray(`metric/${legacy.id}`, session));
      expect404(await xray(`question/${card.id}`, session));
    }
    // The same metric over a field that is not sensitive is x-rayed as before.
    const fine = (
      await http()
        .post('/api/metric')
        .set(auth(s.admin))
        .send({
          name: 'Sources',
          table_id: people,
          definition: { 'source-table': people, aggregation: [['distinct', ['field', source, null]]] },
        })
        .expect(200)
    ).body;
    await xray(`metric/${fine.id}`, s.user.session).expect(200);
  });
});
