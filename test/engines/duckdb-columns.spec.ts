import { DuckDBInstance, type DuckDBConnection, DuckDBTypeId } from '@duckdb/node-api';
import { chunkRows, columnReaders } from '../../src/query-engine/execute/drivers/duckdb-columns';
import { duckFloat, duckValue } from '../../src/query-engine/execute/drivers/duckdb-values';

/**
 * The column-at-a-time reader against the value-by-value conversion it replaced (getRows() and duckValue): the
 * same values for every type it reads itself, at the edges of its fast path, with nulls, and past one chunk.
 */
describe('DuckDB chunks read a column at a time', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
  });
  afterAll(() => {
    conn.closeSync();
    instance.closeSync();
  });

  /** Every chunk of the query, read both ways; `take` cuts each chunk short. */
  async function bothWays(sql: string, take?: number): Promise<{ fast: unknown[][]; slow: unknown[][] }> {
    const fast: unknown[][] = [];
    const slow: unknown[][] = [];
    for (const into of [fast, slow]) {
      const result = await conn.stream(sql);
      const types = result.columnTypes();
      const readers = columnReaders(types);
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        const n = Math.min(take ?? Infinity, chunk.rowCount);
        if (into === fast) into.push(...chunkRows(chunk, n, readers));
        else
          for (const row of chunk.getRows().slice(0, n))
            into.push(row.map((v, i) => (types[i].typeId === DuckDBTypeId.FLOAT ? duckFloat(v) : duckValue(v))));
      }
    }
    return { fast, slow };
  }

  it('reads every fixed-width type as the value-by-value conversion does, nulls included', async () => {
    const { fast, slow } = await bothWays(`
      SELECT * FROM (VALUES
        (true, (-128)::TINYINT, (-32768)::SMALLINT, (-2147483648)::INTEGER, 255::UTINYINT, 65535::USMALLINT, 4294967295::UINTEGER,
         1.5::DOUBLE, 0.1::FLOAT, 42::BIGINT, TIMESTAMP '2024-02-29 23:59:59.123456', TIMESTAMPTZ '2024-01-01 00:00:00+00',
         DATE '2024-02-29', 'text', 12.30::DECIMAL(10,2), [1, 2]),
        (false, 127, 32767, 2147483647, 0, 0, 0, 'NaN'::DOUBLE, 'Infinity'::FLOAT, -1, TIMESTAMP '1970-01-01 00:00:00',
         TIMESTAMPTZ '1969-12-31 23:59:59.5+00', DATE '1970-01-01', '', -0.01, []),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
      )`);
    expect(fast).toEqual(slow);
    expect(fast[0]).toEqual([
      true,
      -128,
      -32768,
      -2147483648,
      255,
      65535,
      4294967295,
      1.5,
      0.1,
      42,
      '2024-02-29T23:59:59.123456',
      '2024-01-01T00:00:00Z',
      '2024-02-29',
      'text',
      12.3,
      [1, 2],
    ]);
    expect(fast[1].slice(7, 12)).toEqual([null, null, -1, '1970-01-01T00:00:00', '1969-12-31T23:59:59.500Z']);
    expect(fast[2].every((v) => v === null)).toBe(true);
  });

  it('takes values past its fast range from the value-by-value path: 2^53 and beyond, infinite and far-off instants', async () => {
    const { fast, slow } = await bothWays(`
      SELECT * FROM (VALUES
        (9007199254740991::BIGINT, TIMESTAMP '2255-06-05 23:47:34.740991', DATE '9999-12-31'),
        ((-9007199254740991)::BIGINT, TIMESTAMP '1685-07-30 00:12:25.259009', DATE '0001-01-01'),
        (9007199254740992::BIGINT, TIMESTAMP '2256-01-01 00:00:00', DATE 'infinity'),
        ((-9007199254740992)::BIGINT, TIMESTAMP '1600-01-01 00:00:00.5', DATE '-infinity'),
        (9223372036854775807::BIGINT, TIMESTAMP 'infinity', NULL),
        ((-9223372036854775808)::BIGINT, TIMESTAMP '-infinity', DATE '1960-03-01'),
        (4294967296::BIGINT, TIMESTAMP '0001-01-01 00:00:00', NULL),
        ((-4294967297)::BIGINT, TIMESTAMP '9999-12-31 23:59:59.999999', NULL)
      )`);
    expect(fast).toEqual(slow);
    expect(fast.map((r) => r[0])).toEqual([
      9007199254740991,
      -9007199254740991,
      '9007199254740992',
      '-9007199254740992',
      '9223372036854775807',
      '-9223372036854775808',
      4294967296,
      -4294967297,
    ]);
    expect(fast[2][1]).toBe('2256-01-01T00:00:00');
    expect(fast[4][1]).toBe('infinity');
  });

  it('reads chunk after chunk, and only the rows asked for', async () => {
    const sql = `SELECT i::BIGINT AS id, (i * 1.25)::DOUBLE AS x, TIMESTAMP '2022-05-01' + i * INTERVAL 37 SECOND AS at,
      CASE WHEN i % 7 = 0 THEN NULL ELSE i::INTEGER END AS maybe FROM range(5000) t(i)`;
    const all = await bothWays(sql);
    expect(all.fast).toHaveLength(5000);
    expect(all.fast).toEqual(all.slow);
    expect(all.fast[4999]).toEqual([4999, 6248.75, '2022-05-03T03:22:43', 4999]);
    const cut = await bothWays(sql, 10);
    expect(cut.fast.length).toBe(cut.slow.length);
    expect(cut.fast.length).toBeLessThan(5000);
    expect(cut.fast).toEqual(cut.slow);
  });
});
