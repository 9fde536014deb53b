import type { Response } from 'supertest';
import type { CardSource } from '../../src/query-engine/metadata';
import { serveCards } from '../support/cards';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

const BAD_AGGREGATION = 41;
const BAD_FILTER = 42;
const OVER_BAD = 43;
const SMUGGLES_SQL = 44;
const GOOD = 45;

/**
 * Saved questions are spliced into the queries that use them (`card__<id>` sources and joins, native `{{#id}}` tags)
 * after the query sent was validated: each is validated as it is spliced in. A malformed one answers the
 * invalid-query failure naming the card, never a server error.
 */
describe('malformed saved questions used as sources', () => {
  let s: SampleApp;
  const post = (path: string, body: unknown) =>
    s.t
      .http()
      .post(path)
      .set(auth(s.admin))
      .send(body as object);
  const structured = (query: Record<string, unknown>) => ({ database: s.db, type: 'query', query });
  const expectInvalid = (res: Response, error: string) => {
    expect([res.status, res.body.status, res.body.error_type, res.body.error]).toEqual([202, 'failed', 'invalid-query', error]);
  };

  beforeAll(async () => {
    s = await startSampleApp();
    const products = s.table('PRODUCTS').id;
    const card = (id: number, query: Record<string, unknown>): CardSource => ({
      id,
      databaseId: s.db,
      query: { database: s.db, type: 'query', query } as CardSource['query'],
    });
    serveCards(s.t.app, {
      [BAD_AGGREGATION]: card(BAD_AGGREGATION, { 'source-table': products, aggregation: 'count' }),
      [BAD_FILTER]: card(BAD_FILTER, { 'source-table': products, filter: ['between', ['field', s.field('PRODUCTS', 'PRICE'), null], 10] }),
      [OVER_BAD]: card(OVER_BAD, { 'source-table': `card__${BAD_AGGREGATION}`, limit: 5 }),
      [SMUGGLES_SQL]: card(SMUGGLES_SQL, { 'source-table': products, native: "SELECT 'pwned' AS X" }),
      [GOOD]: card(GOOD, { 'source-table': products, aggregation: [['count']] }),
    });
  });
  afterAll(() => s.t.close());

  it('refuses a malformed card as the source table, naming it', async () => {
    expectInvalid(
      await post('/api/dataset', structured({ 'source-table': `card__${BAD_AGGREGATION}` })),
      `Invalid query: card ${BAD_AGGREGATION}: query.aggregation: must be a list.`,
    );
    expectInvalid(
      await post('/api/dataset', structured({ 'source-table': `card__${BAD_FILTER}` })),
      `Invalid query: card ${BAD_FILTER}: query.filter: wrong number of arguments to "between" (2; it takes 3).`,
    );
  });

  it('names the malformed card however deep it is, and in joins', async () => {
    expectInvalid(
      await post('/api/dataset', structured({ 'source-table': `card__${OVER_BAD}` })),
      `Invalid query: card ${BAD_AGGREGATION}: query.aggregation: must be a list.`,
    );
    const join = {
      alias: 'j',
      'source-table': `card__${BAD_FILTER}`,
      condition: ['=', ['field', s.field('PRODUCTS', 'ID'), null], ['field', 'ID', { 'base-type': 'type/Integer', 'join-alias': 'j' }]],
    };
    expectInvalid(
      await post('/api/dataset', structured({ 'source-table': s.table('PRODUCTS').id, joins: [join] })),
      `Invalid query: card ${BAD_FILTER}: query.filter: wrong number of arguments to "between" (2; it takes 3).`,
    );
  });

  it('refuses SQL stored inside a structured card, as it refuses it in a query sent', async () => {
    const res = await post('/api/dataset', structured({ 'source-table': `card__${SMUGGLES_SQL}` }));
    expect([res.status, res.body.error_type]).toEqual([202, 'invalid-query']);
    expect(res.body.error).toMatch(new RegExp(`^Invalid query: card ${SMUGGLES_SQL}: query\\.native: is not part of a structured query`));
  });

  it('refuses a malformed MBQL card inlined by a native {{#card}} tag', async () => {
    const tag = `#${BAD_AGGREGATION}`;
    const res = await post('/api/dataset', {
      database: s.db,
      type: 'native',
      native: {
        query: `SELECT COUNT(*) FROM {{${tag}}} c`,
        'template-tags': { [tag]: { id: 't1', name: tag, 'display-name': tag, type: 'card', 'card-id': BAD_AGGREGATION } },
      },
    });
    expectInvalid(res, `Invalid query: card ${BAD_AGGREGATION}: query.aggregation: must be a list.`);
  });

  it('answers the SQL of a query over a malformed card with a 400, not a server error', async () => {
    const res = await post('/api/dataset/native', structured({ 'source-table': `card__${BAD_AGGREGATION}` }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(`card ${BAD_AGGREGATION}: query.aggregation: must be a list.`);
  });

  it('still runs a well-formed card', async () => {
    const res = await post('/api/dataset', structured({ 'source-table': `card__${GOOD}` })).expect(202);
    expect([res.body.status, res.body.data.rows]).toEqual(['completed', [[200]]]);
  });
});
