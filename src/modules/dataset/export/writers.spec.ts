import { PassThrough, Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { csvField, CsvWriter } from './csv-writer';
import type { ExportWriter, ExportWriterOptions } from './export-writer';
import { JsonWriter } from './json-writer';
import { MAX_SHEET_BACKLOG, sheetEntry, XlsxWriter } from './xlsx-writer';

const col = (name: string, base_type: string, unit?: CompiledColumn['unit']): CompiledColumn => ({
  name,
  display_name: name,
  source: 'fields',
  base_type,
  effective_type: base_type,
  semantic_type: null,
  field_ref: ['field', name, null],
  ...(unit ? { unit } : {}),
});
const cols = [
  col('ID', 'type/Integer'),
  col('NAME', 'type/Text'),
  col('AT', 'type/DateTime'),
  col('M', 'type/DateTime', 'month'),
  col('OK', 'type/Boolean'),
];
const rows = [
  [1, 'a, "quoted"', '2024-05-01T10:15:00', '2024-05-01T00:00:00', true],
  [2, null, null, null, false],
];

async function written(make: (o: ExportWriterOptions) => ExportWriter, formatRows: boolean): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  const w = make({ out, cols, formatRows });
  await w.begin(['Id', 'Name', 'At', 'Month', 'Ok']);
  await w.write(rows.slice(0, 1));
  await w.write([]);
  await w.write(rows.slice(1));
  await w.end();
  return Buffer.concat(chunks);
}

describe('export writers', () => {
  it('CSV: header, quoting, readable or raw dates, empty nulls, true/false', async () => {
    expect((await written((o) => new CsvWriter(o), true)).toString()).toBe(
      'Id,Name,At,Month,Ok\n1,"a, ""quoted""","May 1, 2024, 10:15 AM","May, 2024",true\n2,,,,false\n',
    );
    expect((await written((o) => new CsvWriter(o), false)).toString().split('\n')[1]).toBe(
      '1,"a, ""quoted""",2024-05-01T10:15:00,2024-05-01T00:00:00,true',
    );
  });

  it('CSV: text that a spreadsheet would run as a formula is defused, numbers and titles alike handled', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    const w = new CsvWriter({ out, cols: [col('N', 'type/Float'), col('T', 'type/Text')], formatRows: true });
    await w.begin(['=HYPERLINK("http://x")', 'Plain']);
    const texts = ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTAB', '\rCR', 'safe', 'a=b'];
    await w.write(texts.map((t, i) => [i === 0 ? -12.5 : i, t]));
    await w.end();
    const lines = Buffer.concat(chunks).toString().split('\n');
    expect(lines[0]).toBe(`"'=HYPERLINK(""http://x"")",Plain`);
    expect(lines[1]).toBe(`-12.5,'=1+1`);
    expect(lines.slice(2, 6)).toEqual([`1,'+SUM(A1)`, `2,'-2+3`, `3,'@cmd`, `4,'\tTAB`]);
    expect(lines[6]).toBe(`5,"'\rCR"`);
    expect(lines.slice(7, 9)).toEqual(['6,safe', '7,a=b']);
  });

  it('JSON: an array of objects keyed by title', async () => {
    expect(JSON.parse((await written((o) => new JsonWriter(o), true)).toString())).toEqual([
      { Id: '1', Name: 'a, "quoted"', At: 'May 1, 2024, 10:15 AM', Month: 'May, 2024', Ok: true },
      { Id: '2', Name: null, At: null, Month: null, Ok: false },
    ]);
    expect(JSON.parse((await written((o) => new JsonWriter(o), false)).toString())[0].At).toBe('2024-05-01T10:15:00');
  });

  it('XLSX: bold header, Excel dates with a format after the unit', async () => {
    const wb = new ExcelJS.Workbook();
    // exceljs declares its own Buffer type; a Node Buffer is what it reads.
    await wb.xlsx.load((await written((o) => new XlsxWriter(o), true)) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'Id', 'Name', 'At', 'Month', 'Ok']);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getCell('A2').value).toBe(1);
    expect(sheet.getCell('B2').value).toBe('a, "quoted"');
    expect(sheet.getCell('C2').value).toEqual(new Date('2024-05-01T10:15:00Z'));
    expect(sheet.getCell('C2').numFmt).toBe('mmmm d, yyyy, h:mm AM/PM');
    expect(sheet.getCell('D2').numFmt).toBe('mmmm, yyyy');
    expect(sheet.getCell('E2').value).toBe(true);
    expect(sheet.getCell('C3').value).toBeNull();
    expect(sheet.rowCount).toBe(3);
  });

  it('ends a file whose rows stopped early with the incomplete message, in every format', async () => {
    const run = async (make: (o: ExportWriterOptions) => ExportWriter) => {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
      const w = make({ out, cols, formatRows: false });
      await w.begin(['Id', 'Name', 'At', 'Month', 'Ok']);
      await w.write(rows.slice(0, 1));
      await w.incomplete('Download incomplete: boom');
      return Buffer.concat(chunks);
    };
    expect((await run((o) => new CsvWriter(o))).toString().split('\n').slice(-2)).toEqual(['Download incomplete: boom', '']);
    const json = (await run((o) => new JsonWriter(o))).toString();
    expect(json.endsWith(',{"download_incomplete":"Download incomplete: boom"}')).toBe(true);
    expect(() => JSON.parse(json)).toThrow();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await run((o) => new XlsxWriter(o))) as unknown as ExcelJS.Buffer);
    expect(wb.worksheets[0].getCell('A3').value).toBe('Download incomplete: boom');
    expect(wb.worksheets[0].rowCount).toBe(3);
  });

  it('XLSX: frozen header, widths from the content, number formats from the column settings', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    const numbers = [col('P', 'type/Float'), col('NAME', 'type/Text')];
    const w = new XlsxWriter({ out, cols: numbers, formatRows: true, settings: [{ number_style: 'percent', decimals: 1, scale: 2 }, {}] });
    await w.begin(['P', 'N']);
    await w.write([[0.25, 'a rather long piece of text in this column']]);
    await w.end();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0];
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect([sheet.getCell('A2').value, sheet.getCell('A2').numFmt]).toEqual([0.5, '#,##0.0%']);
    expect(sheet.getColumn(2).width).toBeGreaterThan(40);
    expect(sheet.getColumn(1).width).toBeLessThan(15);
  });

  it('CSV: a field is written as csv-stringify writes it, quoted only where it must be', () => {
    const values = [
      'plain',
      '',
      ' spaced ',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\rhere',
      "it's",
      'ünïcødé',
      0,
      -1.5,
      1e21,
      NaN,
      true,
      false,
      12345678901234567890n,
      { a: [1, 'x,y'] },
    ];
    for (const v of values)
      expect(csvField(v)).toBe(stringify([[v]], { cast: { boolean: String, object: (o) => JSON.stringify(o) } }).slice(0, -1));
  });

  it('XLSX: in one column, date-only and date-time values get their own formats', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    const w = new XlsxWriter({ out, cols: [col('AT', 'type/DateTime'), col('N', 'type/Float')], formatRows: false });
    await w.begin(['At', 'N']);
    await w.write([
      ['2024-05-01', 1.5],
      ['2024-05-01T10:15:00', null],
      [null, 2],
      ['2024-05-02 08:00:00', 3],
    ]);
    await w.end();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0];
    expect(['A2', 'A3', 'A5'].map((a) => sheet.getCell(a).numFmt)).toEqual(['yyyy-mm-dd', 'yyyy-mm-dd hh:mm:ss', 'yyyy-mm-dd hh:mm:ss']);
    expect([sheet.getCell('A4').value, sheet.getCell('B3').value, sheet.getCell('B4').value]).toEqual([null, null, 2]);
  });

  it('XLSX: the sheet XML waiting to be deflated stays bounded however many rows are written', async () => {
    // A client that reads steadily but not at once: each chunk is taken on the next turn of the event loop.
    const out = new Writable({ highWaterMark: 64 * 1024, write: (_c, _e, done) => setImmediate(done) });
    const many = Array.from({ length: 10 }, (_, i) => col(`C${i}`, i % 2 ? 'type/Text' : 'type/Float'));
    const w = new XlsxWriter({ out, cols: many, formatRows: false });
    const sheet = (w as unknown as { sheet: ExcelJS.Worksheet }).sheet;
    let backlog = 0;
    let seen = false;
    await w.begin(many.map((c) => c.name));
    for (let b = 0; b < 40; b++) {
      const rows = Array.from({ length: 1000 }, (_, r) =>
        many.map((_c, i) => (i % 2 ? `text ${b}-${r}-${i} `.repeat(3) : b * 1000 + r + i / 10)),
      );
      expect(await w.write(rows)).toBe(true);
      const entry = sheetEntry(sheet);
      const pipes = (sheet as unknown as { _stream?: { pipes?: Array<{ _writableState?: { length: number } }> } })._stream?.pipes;
      const length = pipes?.[0]?._writableState?.length;
      if (typeof length === 'number') seen = true;
      backlog = Math.max(backlog, length ?? 0, entry?._writableState.length ?? 0);
    }
    await w.end();
    // exceljs's internals as the writer expects them (else it would only heed the socket): the bound is tested.
    expect(seen).toBe(true);
    // At most the bound and one batch of rows' XML (about 0.5 MB here) beyond it; without it, past 20 MB.
    expect(backlog).toBeLessThan(MAX_SHEET_BACKLOG + 1024 * 1024);
  }, 120_000);

  it('XLSX: without the zip entry exceljs is expected to have, the writer heeds the socket alone', () => {
    expect(sheetEntry({} as ExcelJS.Worksheet)).toBeNull();
    expect(sheetEntry({ _stream: { pipes: [{}] } } as unknown as ExcelJS.Worksheet)).toBeNull();
  });
});
