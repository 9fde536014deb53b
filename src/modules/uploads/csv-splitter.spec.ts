import { CsvSplitter } from './csv-splitter';

/** Splits text fed in pieces of `size` characters. */
function split(text: string, size: number, delimiter = ','): string[][] {
  const s = new CsvSplitter(delimiter);
  const out: string[][] = [];
  for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
  out.push(...s.end());
  return out;
}

describe('CsvSplitter', () => {
  const text = 'a,b,c\r\n1,"x, ""y""",\n\n2,"multi\nline",z\r3,,"q"';
  const expected = [
    ['a', 'b', 'c'],
    ['1', 'x, "y"', ''],
    ['2', 'multi\nline', 'z'],
    ['3', '', 'q'],
  ];

  it.each([1, 2, 3, 7, 1000])('gives the same records whatever the chunk size (%i)', (size) => {
    expect(split(text, size)).toEqual(expected);
  });

  it('takes semicolons and tabs', () => {
    expect(split('a;b\n1;2\n', 3, ';')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(split('a\tb\n1\t2', 100, '\t')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('names the line of a ragged row and refuses broken quoting', () => {
    expect(() => split('a,b\n1,2\n"x\ny",2\n3\n', 4)).toThrow('Row 5 has a different number of values than the header row.');
    expect(() => split('a,b\n"1,2\n', 4)).toThrow(/line 2: a quoted value is never closed/);
    expect(() => split('a,b\n"1"x,2\n', 100)).toThrow(/line 2: a quoted value is followed by more text/);
  });
});
