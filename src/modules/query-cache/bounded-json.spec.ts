import { boundedJson } from './bounded-json';

describe('boundedJson', () => {
  const result = {
    status: 'completed',
    data: {
      rows: [
        [1, 'ä"'],
        [2, null],
        [3, { x: 1 }],
      ],
      cols: [{ name: 'a' }],
    },
    row_count: 3,
  };

  it('equals JSON.stringify within the bound', () => {
    expect(boundedJson(result, 10_000)).toBe(JSON.stringify(result));
    expect(boundedJson({ ...result, data: { ...result.data, rows: [] } }, 10_000)).toBe(
      JSON.stringify({ ...result, data: { ...result.data, rows: [] } }),
    );
    expect(boundedJson({ a: 1 }, 100)).toBe('{"a":1}');
  });

  it('gives up past the bound, counting bytes not characters', () => {
    const exact = Buffer.byteLength(JSON.stringify(result), 'utf8');
    expect(boundedJson(result, exact)).toBe(JSON.stringify(result));
    expect(boundedJson(result, exact - 1)).toBeNull();
    expect(boundedJson({ a: 'x'.repeat(200) }, 100)).toBeNull();
  });

  it('stops serializing rows once over', () => {
    let seen = 0;
    const row = { toJSON: () => (seen++, ['x'.repeat(100)]) };
    expect(boundedJson({ data: { rows: Array.from({ length: 10_000 }, () => row) } }, 1000)).toBeNull();
    expect(seen).toBeLessThan(20);
  });
});
