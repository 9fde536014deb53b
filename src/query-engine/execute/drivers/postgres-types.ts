import { types } from 'pg';
import type { CustomTypesConfig } from 'pg';
import { decimalNumber, finiteOrNull, isoFromSqlTime, isoFromSqlTimestamp, jsonValue, safeInteger } from './values';

/** typname of the built-in types; others are looked up in pg_type once per driver. */
export const BUILTIN_TYPE_NAMES: Record<number, string> = {
  16: 'bool',
  17: 'bytea',
  18: 'char',
  19: 'name',
  20: 'int8',
  21: 'int2',
  23: 'int4',
  25: 'text',
  26: 'oid',
  114: 'json',
  142: 'xml',
  199: '_json',
  650: 'cidr',
  700: 'float4',
  701: 'float8',
  790: 'money',
  869: 'inet',
  1000: '_bool',
  1005: '_int2',
  1007: '_int4',
  1009: '_text',
  1015: '_varchar',
  1016: '_int8',
  1021: '_float4',
  1022: '_float8',
  1042: 'bpchar',
  1043: 'varchar',
  1082: 'date',
  1083: 'time',
  1114: 'timestamp',
  1115: '_timestamp',
  1182: '_date',
  1184: 'timestamptz',
  1185: '_timestamptz',
  1186: 'interval',
  1231: '_numeric',
  1266: 'timetz',
  1700: 'numeric',
  2950: 'uuid',
  2951: '_uuid',
  3802: 'jsonb',
  3807: '_jsonb',
};

type Parser = (text: string) => unknown;
const raw: Parser = (text) => text;
const stockParser = (oid: number): Parser => types.getTypeParser(oid as Parameters<typeof types.getTypeParser>[0], 'text') as Parser;

/**
 * Text-format parsers that produce the shared value conventions (values.ts) directly. The session runs in UTC,
 * so timestamptz values arrive as UTC. Arrays of temporal types stay in Postgres's array text form, because
 * the stock parsers would read naive timestamps in the server process's local time zone.
 */
const PARSERS: Record<number, Parser> = {
  20: (v) => safeInteger(v),
  1016: (v) => (stockParser(1016)(v) as unknown[]).map((x) => (typeof x === 'string' ? safeInteger(x) : x)),
  1700: (v) => decimalNumber(v),
  1231: (v) => (stockParser(1231)(v) as unknown[]).map((x) => (typeof x === 'string' ? decimalNumber(x) : x)),
  700: (v) => finiteOrNull(parseFloat(v)),
  701: (v) => finiteOrNull(parseFloat(v)),
  1082: raw,
  1083: isoFromSqlTime,
  1114: (v) => isoFromSqlTimestamp(v, false),
  1184: (v) => isoFromSqlTimestamp(v, true),
  1266: raw,
  1186: raw,
  114: raw,
  3802: raw,
  199: raw,
  3807: raw,
  790: raw,
  1115: raw,
  1182: raw,
  1185: raw,
};

export const RESULT_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format === 'binary') return types.getTypeParser(oid, 'binary');
    const own = PARSERS[oid];
    if (own) return own;
    const stock = stockParser(oid);
    return (text: string) => jsonValue(stock(text));
  }) as CustomTypesConfig['getTypeParser'],
};
