import type { FieldRef, FieldOptions } from '../../../src/query-engine/mbql/types';
import type { FieldMeta, TableMeta } from '../../../src/query-engine/metadata';
import type { MetadataSnapshot } from '../../../src/query-engine/compile/contract';
import type { DescribedDatabase, Engine, WarehouseDriver } from '../../../src/query-engine/execute/drivers';
import { SAMPLE_TABLES, type ColumnKind } from '../../../src/sample-data/schema';

/**
 * Stable synthetic ids for the Sample Database, the same on every engine: tables 1-4 in SAMPLE_TABLES order,
 * fields `tableId * 100 + column position + 1` (ORDERS.TOTAL is 306).
 */
export const TABLE_IDS: Record<string, number> = Object.fromEntries(SAMPLE_TABLES.map((t, i) => [t.name, i + 1]));

export function fieldId(table: string, column: string): number {
  const t = SAMPLE_TABLES.find((x) => x.name === table);
  const i = t?.columns.findIndex((c) => c.name === column) ?? -1;
  if (!t || i < 0) throw new Error(`No sample column ${table}.${column}`);
  return TABLE_IDS[table] * 100 + i + 1;
}

/** `f('ORDERS', 'TOTAL')` -> `["field", 306, null]`. */
export function f(table: string, column: string, opts: FieldOptions | null = null): FieldRef {
  return ['field', fieldId(table, column), opts];
}

export function humanize(name: string): string {
  return name
    .toLowerCase()
    .split('_')
    .map((w) => (w === 'id' ? 'ID' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

const KIND_TYPES: Record<ColumnKind, string> = {
  int: 'type/Integer',
  bigint: 'type/BigInteger',
  float: 'type/Float',
  text: 'type/Text',
  longtext: 'type/Text',
  timestamp: 'type/DateTime',
  date: 'type/Date',
};

function semanticType(column: string, references?: string): string | null {
  if (column === 'ID') return 'type/PK';
  if (references) return 'type/FK';
  if (column === 'LATITUDE') return 'type/Latitude';
  if (column === 'LONGITUDE') return 'type/Longitude';
  if (column === 'CATEGORY') return 'type/Category';
  if (column === 'EMAIL') return 'type/Email';
  return null;
}

export type Fingerprints = Record<number, { min: number; max: number }>;

/**
 * The snapshot for one engine: table schema and field base types from describe(), ids and semantic types from
 * the sample schema, fingerprints (min/max) as given.
 */
export function sampleSnapshot(engine: Engine, described: DescribedDatabase | null, fingerprints: Fingerprints = {}): MetadataSnapshot {
  const tables = new Map<number, TableMeta>();
  const fields = new Map<number, FieldMeta>();
  for (const t of SAMPLE_TABLES) {
    const info = described?.tables.find((x) => x.name === t.name);
    const tableId = TABLE_IDS[t.name];
    const schema = described
      ? (info?.schema ?? null)
      : ({ postgres: 'public', duckdb: 'main', mysql: null, sqlite: null } as const)[engine];
    tables.set(tableId, { id: tableId, dbId: 1, schema, name: t.name, displayName: humanize(t.name) });
    t.columns.forEach((c, i) => {
      const id = tableId * 100 + i + 1;
      const baseType = info?.columns.find((x) => x.name === c.name)?.baseType ?? KIND_TYPES[c.kind];
      const fp = fingerprints[id];
      fields.set(id, {
        id,
        tableId,
        name: c.name,
        displayName: humanize(c.name),
        baseType,
        effectiveType: baseType,
        semanticType: semanticType(c.name, c.references),
        fkTargetFieldId: c.references ? TABLE_IDS[c.references] * 100 + 1 : null,
        visibilityType: 'normal',
        coercionStrategy: null,
        fingerprint: fp ? { type: { 'type/Number': { min: fp.min, max: fp.max } } } : null,
        position: i,
      });
    });
  }
  return {
    table(id) {
      const t = tables.get(id);
      if (!t) throw new Error(`no table ${id}`);
      return t;
    },
    field(id) {
      const x = fields.get(id);
      if (!x) throw new Error(`no field ${id}`);
      return x;
    },
    tableFields(tableId) {
      return [...fields.values()].filter((x) => x.tableId === tableId).sort((a, b) => a.position - b.position);
    },
  };
}

/** Real min/max of every numeric column, read from the warehouse. */
export async function readFingerprints(driver: WarehouseDriver, engine: Engine, schema: string | null): Promise<Fingerprints> {
  const q = (n: string) => (engine === 'mysql' ? `\`${n}\`` : `"${n}"`);
  const out: Fingerprints = {};
  for (const t of SAMPLE_TABLES) {
    const numeric = t.columns.map((c, i) => ({ c, i })).filter(({ c }) => ['int', 'bigint', 'float'].includes(c.kind));
    const from = `${schema ? `${q(schema)}.` : ''}${q(t.name)}`;
    const sql = `SELECT ${numeric.map(({ c }) => `MIN(${q(c.name)}), MAX(${q(c.name)})`).join(', ')} FROM ${from}`;
    const { rows } = await driver.query(sql);
    numeric.forEach(({ i }, k) => {
      const min = Number(rows[0][2 * k]);
      const max = Number(rows[0][2 * k + 1]);
      if (Number.isFinite(min) && Number.isFinite(max)) out[TABLE_IDS[t.name] * 100 + i + 1] = { min, max };
    });
  }
  return out;
}

/** Fingerprints for SQL snapshots (no database): round numbers, so the SQL does not move with the data. */
export const SNAPSHOT_FINGERPRINTS: Fingerprints = {
  [fieldId('ORDERS', 'TOTAL')]: { min: 12.5, max: 159.35 },
  [fieldId('ORDERS', 'SUBTOTAL')]: { min: 15.69, max: 148.23 },
  [fieldId('ORDERS', 'QUANTITY')]: { min: 0, max: 100 },
  [fieldId('PRODUCTS', 'PRICE')]: { min: 15.69, max: 98.82 },
  [fieldId('PRODUCTS', 'RATING')]: { min: 0, max: 5 },
  [fieldId('PEOPLE', 'LATITUDE')]: { min: 25.78, max: 70.64 },
  [fieldId('PEOPLE', 'LONGITUDE')]: { min: -166.54, max: -67.97 },
};
