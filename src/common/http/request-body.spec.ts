import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { ApiError } from '../errors/api-errors';
import {
  BODY_LIMIT_BYTES,
  BODY_NUL,
  BODY_TOO_DEEP,
  BODY_TOO_LARGE,
  BODY_UNPARSABLE,
  MAX_JSON_DEPTH,
  flawOf,
  formBody,
  jsonBody,
} from './request-body';

/** The parsers in a bare Express app that echoes what they made of the body, and answers errors as the API filter would. */
function app() {
  const a = express();
  a.use(jsonBody(), formBody());
  a.all('/echo', (req, res) => res.json({ body: req.body === undefined ? '<none>' : req.body }));
  a.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ApiError) res.status(err.status).json(err.body());
    else res.status(500).json({ unexpected: String(err) });
  });
  return a;
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('request bodies', () => {
  const post = (body: string, type = 'application/json') => request(app()).post('/echo').set('Content-Type', type).send(body);

  it('takes `null` as no body, on any method', async () => {
    expect((await post('null')).body).toEqual({ body: '<none>' });
    expect((await request(app()).get('/echo').set('Content-Type', 'application/json').send(' null ')).body).toEqual({ body: '<none>' });
    expect((await request(app()).delete('/echo').set('Content-Type', 'application/json').send('null')).body).toEqual({ body: '<none>' });
  });

  it('answers a top-level number, string or boolean with 400 in the validation shape', async () => {
    for (const [raw, shown] of [
      ['5', '5'],
      ['"x"', '"x"'],
      ['true', 'true'],
      ['1e999', 'null'],
    ]) {
      const res = await post(raw);
      expect([res.status, res.body]).toEqual([
        400,
        { errors: { body: 'value must be a map.' }, 'specific-errors': { body: [`value must be a map, received: ${shown}`] } },
      ]);
    }
  });

  it('takes objects and arrays up to the depth limit, and refuses one level more with the limit named', async () => {
    expect((await post(nested(MAX_JSON_DEPTH))).status).toBe(200);
    expect((await post(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`)).status).toBe(200);
    for (const body of [nested(MAX_JSON_DEPTH + 1), nested(1_000_000), '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)]) {
      const res = await post(body);
      expect([res.status, res.body]).toEqual([400, { message: BODY_TOO_DEEP }]);
    }
    expect(BODY_TOO_DEEP).toContain(String(MAX_JSON_DEPTH));
  });

  it('refuses a body over the size limit with 413 naming the limit, and bad JSON with 400', async () => {
    const big = await post(JSON.stringify({ s: 'x'.repeat(BODY_LIMIT_BYTES) }));
    expect([big.status, big.body]).toEqual([413, { message: BODY_TOO_LARGE }]);
    expect(BODY_TOO_LARGE).toContain('10 MB');
    for (const bad of ['{"a": ', '{"a":1}}', 'nul', '\u0000', '{"a":"\\x"}']) {
      const res = await post(bad);
      expect([res.status, res.body]).toEqual([400, { message: BODY_UNPARSABLE }]);
    }
  });

  it('answers an unknown charset or content encoding with 415', async () => {
    expect((await post('{}', 'application/json; charset=latin-9')).status).toBe(415);
    const zipped = await request(app()).post('/echo').set('Content-Type', 'application/json').set('Content-Encoding', 'br-nope').send('{}');
    expect(zipped.status).toBe(415);
  });

  it('refuses a NUL character in any string or key, which the app database cannot store', async () => {
    for (const body of ['{"name":"a\\u0000b"}', '{"a":[{"b":["\\u0000"]}]}', '{"k\\u0000":1}']) {
      const res = await post(body);
      expect([res.status, res.body]).toEqual([400, { message: BODY_NUL }]);
    }
    expect((await post('{"name":"a\\\\u0000b"}')).status).toBe(200); // an escaped backslash: six characters of text, no NUL
  });

  it('walks any depth without recursion', () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(flawOf(deep, 10)).toBe('deep');
    expect(flawOf({ a: [1, { b: [] }], c: 'x' }, 4)).toBeUndefined();
    expect(flawOf({ a: [1, { b: [] }], c: 'x' }, 3)).toBe('deep');
  });
});
