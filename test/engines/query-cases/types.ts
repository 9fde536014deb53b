import type { Engine } from '../../../src/query-engine/execute/drivers';
import type { FieldOptions, InnerQuery } from '../../../src/query-engine/mbql/types';
import type { SampleData } from '../../../src/sample-data';
import { f } from './metadata';

export interface QueryCase {
  name: string;
  query: InnerQuery;
  /** Engines on which compiling must fail with this message (the case then runs on the others). */
  unsupported?: Partial<Record<Engine, RegExp>>;
  /** Exact rows (normalized as in the spec); in order when the query has an order-by, else as a set. */
  expected?: unknown[][];
  /** Rows computed from the generator's data (orders: the first 500), compared like `expected`. */
  expectedFrom?: (data: { products: unknown[][]; people: unknown[][]; orders: unknown[][]; reviews: unknown[][] }) => unknown[][];
  /** Checks on the rows of the first engine (all engines agree with it). */
  check?: (rows: unknown[][]) => void;
  /** Column names expected. */
  columns?: string[];
  /** Report time zone for this case (CompileOptions.timezone). */
  timezone?: string;
  /** Only on these engines. */
  engines?: Engine[];
  /** The order-by touches NULLs or ties, whose order differs per engine: compare as sets. */
  unordered?: boolean;
}

export type { SampleData };

export const O = (c: string, opts: FieldOptions | null = null) => f('ORDERS', c, opts);
export const P = (c: string, opts: FieldOptions | null = null) => f('PRODUCTS', c, opts);
export const U = (c: string, opts: FieldOptions | null = null) => f('PEOPLE', c, opts);
export const R = (c: string, opts: FieldOptions | null = null) => f('REVIEWS', c, opts);
export const PRODUCTS = 1;
export const PEOPLE = 2;
export const ORDERS = 3;
export const REVIEWS = 4;
