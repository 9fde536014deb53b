import { PassThrough } from 'node:stream';
import type { Response } from 'express';
import { jsonBatches, sendJsonArray } from './json-array-stream';

/** A response stand-in: status and type recorded, the body collected from what is written. */
function response() {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  // destroy(error) emits it; a real response's socket is torn down the same way.
  out.on('error', () => undefined);
  const res = Object.assign(out, {
    statusCode: 0,
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    type() {
      return res;
    },
  });
  return { res: res as unknown as Response & PassThrough, body: () => Buffer.concat(chunks).toString('utf8') };
}

async function* of(...batches: string[][]) {
  for (const b of batches) yield b;
}

describe('sendJsonArray', () => {
  it('writes the batches as one JSON array, empty batches and no batches included', async () => {
    for (const [batches, expected] of [
      [
        [['{"a":1}', '{"a":2}'], [], ['{"a":3}']],
        [{ a: 1 }, { a: 2 }, { a: 3 }],
      ],
      [[[], ['{"a":1}']], [{ a: 1 }]],
      [[[]], []],
      [[], []],
    ] as Array<[string[][], unknown[]]>) {
      const { res, body } = response();
      await sendJsonArray(res, of(...batches));
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(body())).toEqual(expected);
    }
  });

  it('lets a failure before the first batch through with nothing sent, so the API can answer it', async () => {
    const { res, body } = response();
    const failing = (async function* (): AsyncGenerator<string[]> {
      throw new Error('no table');
    })();
    await expect(sendJsonArray(res, failing)).rejects.toThrow('no table');
    expect(res.statusCode).toBe(0);
    expect(body()).toBe('');
  });

  it('ends the body early on a failure midway, and stops reading when the client has gone', async () => {
    const broken = response();
    const failing = (async function* () {
      yield ['{"a":1}'];
      throw new Error('lost');
    })();
    await expect(sendJsonArray(broken.res, failing)).rejects.toThrow('lost');
    expect(broken.res.destroyed).toBe(true);

    const gone = response();
    let read = 0;
    const endless = (async function* () {
      for (;;) {
        read++;
        if (read === 2) gone.res.destroy();
        yield ['{"a":1}'];
      }
    })();
    await sendJsonArray(gone.res, endless);
    expect(read).toBeLessThan(5);
  });
});

describe('jsonBatches', () => {
  it('groups items by the size of their JSON, each item whole', async () => {
    const items = [{ n: 'x'.repeat(10) }, { n: 'y'.repeat(10) }, { n: 'z' }];
    const got: string[][] = [];
    for await (const b of jsonBatches(items, 30)) got.push(b);
    expect(got).toEqual([[JSON.stringify(items[0]), JSON.stringify(items[1])], [JSON.stringify(items[2])]]);
  });
});
