import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { XlsxWriter } from './xlsx-writer';

const col = (name: string, base_type: string): CompiledColumn => ({
  name,
  display_name: name,
  source: 'fields',
  base_type,
  effective_type: base_type,
  semantic_type: null,
  field_ref: ['field', name, null],
});

/** Rows whose XML runs over many of exceljs's 64 kB buffers, with two-, three- and four-byte characters across their ends. */
const ROWS = Array.from({ length: 6000 }, (_, i) => [i, `${'é€😀'.repeat(i % 7)} row ${i} <&> "q"`, i % 3 === 0 ? null : i / 8]);

describe('XLSX sheet text encoded in place', () => {
  afterEach(() => jest.restoreAllMocks());

  it('writes every row as exceljs would, its XML encoded straight into the zip buffers', async () => {
    const encodeInto = jest.spyOn(TextEncoder.prototype, 'encodeInto');
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const writer = new XlsxWriter({
      out,
      cols: [col('N', 'type/Integer'), col('T', 'type/Text'), col('F', 'type/Float')],
      formatRows: false,
    });
    await writer.begin(['N', 'T', 'F']);
    for (let i = 0; i < ROWS.length; i += 1000) await writer.write(ROWS.slice(i, i + 1000));
    await writer.end();
    // Most rows went through the in-place path (the first ones are written before the zip pipes the sheet).
    expect(encodeInto.mock.calls.length).toBeGreaterThan(ROWS.length / 2);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(ROWS.length + 1);
    const read: unknown[][] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) read.push([1, 2, 3].map((c) => row.getCell(c).value ?? null));
    });
    expect(read).toEqual(ROWS);
  });
});
