import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { CsvWriter } from './csv-writer';
import type { ExportWriter, ExportWriterOptions } from './export-writer';
import { JsonWriter } from './json-writer';
import { XlsxWriter } from './xlsx-writer';

const col = (name: string, base_type: string, unit?: CompiledColumn['unit']): CompiledColumn =>
  ({ name, display_name: name, source: 'fields', base_type, effective_type: base_type, semantic_type: null, field_ref: ['field', name, null], ...(unit ? { unit } : {}) });
const cols = [col('ID', 'type/Integer'), col('NAME', 'type/Text'), col('AT', 'type/DateTime'), col('M', 'type/DateTime', 'month'), col('OK', 'type/Boolean')];
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
    expect((await written((o) => new CsvWriter(o), false)).toString().split('\n')[1]).toBe('1,"a, ""quoted""",2024-05-01T10:15:00,2024-05-01T00:00:00,true');
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
});
