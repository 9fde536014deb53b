import { baseTypeFor } from './base-types';
import type { ResultColumn } from './driver';
import { decimalNumber, float32Number, isoFromSqlTime, isoFromSqlTimestamp, jsonValue, safeInteger } from './values';

/** The parts of mysql2's column definition we read. */
export interface MysqlField {
  name: string;
  columnType: number;
  columnLength: number;
  characterSet: number;
}

const BINARY_CHARSET = 63;

const TYPE_NAMES: Record<number, string> = {
  0: 'DECIMAL',
  1: 'TINYINT',
  2: 'SMALLINT',
  3: 'INT',
  4: 'FLOAT',
  5: 'DOUBLE',
  6: 'NULL',
  7: 'TIMESTAMP',
  8: 'BIGINT',
  9: 'MEDIUMINT',
  10: 'DATE',
  11: 'TIME',
  12: 'DATETIME',
  13: 'YEAR',
  14: 'DATE',
  15: 'VARCHAR',
  16: 'BIT',
  245: 'JSON',
  246: 'DECIMAL',
  247: 'ENUM',
  248: 'SET',
  249: 'TINYTEXT',
  250: 'MEDIUMTEXT',
  251: 'LONGTEXT',
  252: 'TEXT',
  253: 'VARCHAR',
  254: 'CHAR',
  255: 'GEOMETRY',
};

const BINARY_NAMES: Record<number, string> = {
  249: 'TINYBLOB',
  250: 'MEDIUMBLOB',
  251: 'LONGBLOB',
  252: 'BLOB',
  253: 'VARBINARY',
  254: 'BINARY',
};

/** tinyint(1) is MySQL's BOOLEAN; like the JDBC driver (tinyInt1isBit) we report it as BIT, a boolean. */
export function mysqlTypeName(f: MysqlField): string {
  if (f.columnType === 1 && f.columnLength === 1) return 'BIT';
  if (f.characterSet === BINARY_CHARSET && BINARY_NAMES[f.columnType]) return BINARY_NAMES[f.columnType];
  return TYPE_NAMES[f.columnType] ?? 'UNKNOWN';
}

export function mysqlResultColumn(f: MysqlField): ResultColumn {
  const databaseType = mysqlTypeName(f);
  return { name: f.name, databaseType, baseType: baseTypeFor('mysql', databaseType) };
}

type Convert = (v: unknown) => unknown;

const ZERO_DATE = /^0000-00-00/;

/** mysql2 runs with dateStrings, bigNumberStrings and jsonStrings; this turns its values into ours. */
export function mysqlConverter(f: MysqlField): Convert {
  switch (f.columnType) {
    case 1:
      return f.columnLength === 1 ? (v) => (v === null ? null : Number(v) !== 0) : jsonValue;
    case 8:
    case 9:
      return (v) => (v === null ? null : safeInteger(v as string | number));
    case 0:
    case 246:
      return (v) => (v === null ? null : decimalNumber(v as string));
    case 4:
      return (v) => (v === null ? null : float32Number(Number(v)));
    case 7:
      return (v) => (typeof v === 'string' ? (ZERO_DATE.test(v) ? null : isoFromSqlTimestamp(v, true)) : jsonValue(v));
    case 12:
      return (v) => (typeof v === 'string' ? (ZERO_DATE.test(v) ? null : isoFromSqlTimestamp(v, false)) : jsonValue(v));
    case 10:
    case 14:
      return (v) => (typeof v === 'string' && ZERO_DATE.test(v) ? null : jsonValue(v));
    case 11:
      return (v) => (typeof v === 'string' ? isoFromSqlTime(v) : jsonValue(v));
    case 16:
      return (v) => bitValue(v, f.columnLength);
    default:
      return jsonValue;
  }
}

function bitValue(v: unknown, bits: number): unknown {
  if (!(v instanceof Uint8Array)) return jsonValue(v);
  let n = 0;
  for (const byte of v) n = n * 256 + byte;
  return bits === 1 ? n !== 0 : n;
}
