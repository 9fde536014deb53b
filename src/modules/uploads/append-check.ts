import { MessageError } from '../../common/errors/api-errors';
import type { UploadType } from './column-types';
import type { CsvAnalysis } from './csv-analysis';
import type { UploadColumn } from './loaders/bulk-loader';
import type { UploadFieldRow } from './uploads.repository';

/** Which value types each synced column type takes. A type not listed takes anything (the warehouse decides). */
const ACCEPTS: Record<string, UploadType[]> = {
  'type/Integer': ['int'],
  'type/BigInteger': ['int', 'bigint'],
  'type/Float': ['int', 'bigint', 'float'],
  'type/Decimal': ['int', 'bigint', 'float'],
  'type/Boolean': ['boolean'],
  'type/Date': ['date'],
  'type/DateTime': ['date', 'datetime'],
  'type/DateTimeWithLocalTZ': ['date', 'datetime', 'offset-datetime'],
  'type/DateTimeWithTZ': ['date', 'datetime', 'offset-datetime'],
};

/**
 * A file appended to (or replacing) an upload's table must have the table's columns, no more and no fewer (in any
 * order), each with values its column can hold. Answers the columns to load, in the file's order.
 */
export function checkAppendColumns(fields: UploadFieldRow[], analysis: CsvAnalysis): UploadColumn[] {
  // Looked up by name (not searched per column), so the check stays linear in the number of columns.
  const byName = new Map(fields.map((f) => [f.name, f]));
  const fileNames = new Set(analysis.columns.map((c) => c.name));
  const missing = fields.filter((f) => !fileNames.has(f.name)).map((f) => f.name);
  const extra = [...fileNames].filter((n) => !byName.has(n));
  const problems: string[] = [];
  if (missing.length) problems.push(`The CSV file is missing columns that are in the table: ${missing.join(', ')}.`);
  if (extra.length) problems.push(`The CSV file contains extra columns that are not in the table: ${extra.join(', ')}.`);
  if (problems.length) throw new MessageError(problems.join(' '));
  const wrong = analysis.columns.filter((c, i) => {
    const seen = analysis.seen[i];
    const accepts = ACCEPTS[byName.get(c.name)!.base_type];
    return seen !== null && accepts !== undefined && !accepts.includes(seen);
  });
  if (wrong.length)
    throw new MessageError(
      `The values of these columns do not fit their columns' types in the table: ${wrong.map((c) => c.name).join(', ')}.`,
    );
  // Loaders convert by the table's type where it matters (MySQL booleans and datetimes): take it where it is known.
  return analysis.columns.map((c, i) => {
    const base = byName.get(c.name)!.base_type;
    const type: UploadType =
      base === 'type/Boolean' ? 'boolean' : base.startsWith('type/DateTime') && analysis.seen[i] === 'date' ? 'datetime' : c.type;
    return { name: c.name, type };
  });
}
