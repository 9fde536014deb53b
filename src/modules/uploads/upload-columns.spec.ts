import { CsvSplitter } from './csv-splitter';
import { MAX_UPLOAD_COLUMNS } from './upload-limits';
import { columnNames } from './upload-names';

/** Splits text fed in pieces of `size` characters. */
function split(text: string, size: number, maxFields?: number): string[][] {
  const s = new CsvSplitter(',', maxFields);
  const out: string[][] = [];
  for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
  out.push(...s.end());
  return out;
}

/** Issue 30, finding 5: a header of many (or many repeated) columns must neither block the server nor pass the engines' limits. */
describe('upload columns', () => {
  it('makes 25,000 repeats of one name unique as a, a_2, a_3... (one step per column)', () => {
    const names = columnNames(Array(25_000).fill('a'), '_mb_row_id');
    expect(names.slice(0, 3)).toEqual(['a', 'a_2', 'a_3']);
    expect(names[24_999]).toBe('a_25000');
    expect(new Set(names).size).toBe(25_000);
  });

  it('passes over names the header already has, and keeps suffixed names within 63 characters', () => {
    expect(columnNames(['a_3', 'a', 'a', 'a', 'b', 'a_2'], '_mb_row_id')).toEqual(['a_3', 'a', 'a_2', 'a_4', 'b', 'a_2_2']);
    const long = 'x'.repeat(70);
    const names = columnNames(Array(1200).fill(long), '_mb_row_id');
    expect(new Set(names).size).toBe(1200);
    expect(Math.max(...names.map((n) => n.length))).toBe(63);
    expect(names[1199]).toBe(`${'x'.repeat(58)}_1200`);
  });

  it(`refuses a header over ${MAX_UPLOAD_COLUMNS} columns, naming the limit, and takes one at the limit`, () => {
    const header = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`).join(',');
    const message = `The CSV file has more than 1,000 columns: an upload may have at most 1,000 columns.`;
    expect(() => split(`${header(MAX_UPLOAD_COLUMNS + 1)}\n`, 1 << 20)).toThrow(message);
    // Far wider (25,000 columns): refused while the header is still being read.
    expect(() => split(`${Array(25_000).fill('a').join(',')}\n`, 4096)).toThrow(message);
    expect(split(`${header(MAX_UPLOAD_COLUMNS)}\n${Array(MAX_UPLOAD_COLUMNS).fill('1').join(',')}\n`, 7)[1]).toHaveLength(
      MAX_UPLOAD_COLUMNS,
    );
    expect(() => split('a,b,c\n', 100, 2)).toThrow('more than 2 columns');
  });

  it('names the line of a data row wider than the header, however wide', () => {
    expect(() => split(`a,b\n1,2\n${Array(5000).fill('x').join(',')}\n`, 64)).toThrow(
      'Row 3 has a different number of values than the header row.',
    );
  });

  it('reads a record far longer than a chunk whole, in chunks of any size', () => {
    const long = 'y'.repeat(300_000);
    const quoted = `"${'z'.repeat(1000)}""${'z'.repeat(200_000)}"`;
    const text = `a,b\n${long},1\n${quoted},2\n3,4`;
    const expected = [
      ['a', 'b'],
      [long, '1'],
      [`${'z'.repeat(1000)}"${'z'.repeat(200_000)}`, '2'],
      ['3', '4'],
    ];
    // One character at a time: scanning the long records again for every character would take ~10^11 steps.
    for (const size of [1, 5, 4096]) expect(split(text, size)).toEqual(expected);
  });
});
