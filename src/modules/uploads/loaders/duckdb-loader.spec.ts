import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { UploadColumn } from './bulk-loader';
import { DuckDbLoader } from './duckdb-loader';

/** Rows that fail the test if the loader falls back to the appender: DuckDB must read the file itself. */
const unused = {
  async *[Symbol.asyncIterator](): AsyncGenerator<Array<Array<string | null>>> {
    throw new Error('the appender was used');
  },
};

describe('DuckDbLoader reading the file itself', () => {
  let dir: string;
  let loader: DuckDbLoader;
  const target = { schema: 'main', table: 'up_t' };
  const columns: UploadColumn[] = [
    { name: 'n', type: 'int' },
    { name: 'ok', type: 'boolean' },
    { name: 'label', type: 'text' },
    { name: 'day', type: 'date' },
  ];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'duckdb-loader-'));
    loader = new DuckDbLoader({ db: path.join(dir, 'w.duckdb') }, {});
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string, tidy: boolean) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return { file: p, encoding: 'utf-8' as const, skipBytes: 0, delimiter: ',', tidy };
  };

  async function rows(): Promise<unknown[][]> {
    const instance = await DuckDBInstance.create(path.join(dir, 'w.duckdb'));
    const conn = await instance.connect();
    try {
      const reader = await conn.runAndReadAll('SELECT _mb_row_id, n, ok, label, CAST(day AS VARCHAR) FROM main.up_t ORDER BY _mb_row_id');
      return reader.getRows().map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }

  it('normalizes untidy values as the parsing path does, skips empty lines, and numbers a generated key in file order', async () => {
    const untidy = file('a.csv', 'n,ok,label,day\n 3 ,Yes , a b ,2024-01-02\n\n1,no,   ,  \n2, , x,2024-03-04 \n', false);
    await expect(loader.create(target, columns, null, unused, untidy)).resolves.toBe(3);
    expect(await rows()).toEqual([
      [1, 3, true, ' a b ', '2024-01-02'],
      [2, 1, false, null, null],
      [3, 2, null, ' x', '2024-03-04'],
    ]);
  });

  it('appends after the highest generated key, and replaces from 1', async () => {
    await loader.create(target, columns, null, unused, file('a.csv', 'n,ok,label,day\n1,t,a,\n2,f,b,\n', true));
    // The file's columns in another order than the table's.
    await expect(
      loader.append(target, columns.slice().reverse(), unused, false, file('b.csv', 'day,label,ok,n\n,c,y,3\n', true)),
    ).resolves.toBe(1);
    expect((await rows()).map((r) => [r[0], r[1], r[3]])).toEqual([
      [1, 1, 'a'],
      [2, 2, 'b'],
      [3, 3, 'c'],
    ]);
    await loader.append(target, columns, unused, true, file('c.csv', 'n,ok,label,day\n9,t,z,\n', true));
    expect((await rows()).map((r) => [r[0], r[1]])).toEqual([[1, 9]]);
  });

  it('falls back to the appender (the parsed rows) for a file DuckDB refuses to read', async () => {
    const seen: string[][] = [];
    const parsed = {
      async *[Symbol.asyncIterator]() {
        const batch = [['5', 'true', 'ab', null]];
        seen.push(...(batch as string[][]));
        yield batch;
      },
    };
    await expect(loader.create(target, columns, null, parsed, file('a.csv', 'n,ok,label,day\n5,true,"a"b,\n', false))).resolves.toBe(1);
    expect(seen).toHaveLength(1);
    expect(await rows()).toEqual([[1, 5, true, 'ab', null]]);
  });
});
