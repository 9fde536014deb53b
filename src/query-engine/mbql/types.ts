import type { SqlParam } from '../types';

/**
 * Legacy MBQL, normalized: kebab-case keys, lower-case clause names, every field reference in the
 * `["field", id | name, opts | null]` form. normalize.ts turns what clients send into this; everything after it
 * may rely on this shape (Metabase's legacy `dataset_query`).
 */

export type TemporalUnit =
  | 'default'
  | 'minute'
  | 'hour'
  | 'day'
  | 'week'
  | 'month'
  | 'quarter'
  | 'year'
  | 'minute-of-hour'
  | 'hour-of-day'
  | 'day-of-week'
  | 'day-of-month'
  | 'day-of-year'
  | 'week-of-year'
  | 'month-of-year'
  | 'quarter-of-year';

export const TRUNCATION_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const EXTRACTION_UNITS = [
  'minute-of-hour',
  'hour-of-day',
  'day-of-week',
  'day-of-month',
  'day-of-year',
  'week-of-year',
  'month-of-year',
  'quarter-of-year',
] as const;

export type Binning =
  | { strategy: 'num-bins'; 'num-bins': number; 'bin-width'?: number; 'min-value'?: number; 'max-value'?: number }
  | { strategy: 'bin-width'; 'bin-width': number; 'min-value'?: number; 'max-value'?: number }
  | { strategy: 'default'; 'bin-width'?: number; 'min-value'?: number; 'max-value'?: number };

export interface FieldOptions {
  'base-type'?: string;
  'temporal-unit'?: TemporalUnit;
  'join-alias'?: string;
  'source-field'?: number;
  binning?: Binning;
}

export type FieldRef = ['field', number | string, FieldOptions | null];
export type ExpressionRef = ['expression', string, FieldOptions?];
export type AggregationRef = ['aggregation', number, FieldOptions?];
export type Ref = FieldRef | ExpressionRef | AggregationRef;

/** Any expression: a ref, a literal, or a clause `[name, ...args]` (arithmetic, string and date functions, case...). */
export type Expr = Ref | string | number | boolean | null | Clause;
export type Clause = [string, ...unknown[]];

export type Filter = Clause;

export type Aggregation = Clause;

export type OrderBy = ['asc' | 'desc', Ref];

export interface Join {
  'source-table'?: number | string;
  'source-query'?: InnerQuery;
  /** Set by preprocessing when the joined source is a native saved question. */
  native?: string;
  /** Set with `native`: the saved question's result columns, when it has them. */
  'native-columns'?: NativeColumn[];
  /** Set with `native` by a row security policy's SQL question: the values of its `?` placeholders, in order. */
  'native-params'?: SqlParam[];
  /** Set with `native`: the card of the row security policy whose SQL this is (run for the caller, who may not write SQL). */
  'qp/row-policy-card'?: number;
  alias: string;
  condition: Filter;
  fields?: 'all' | 'none' | Ref[];
  strategy?: 'left-join' | 'right-join' | 'inner-join' | 'full-join';
  /** The foreign key the join goes through (Metabase sets it on implicit joins, and on some explicit ones). */
  'fk-field-id'?: number;
  /**
   * Set by preprocessing (preprocess/add-implicit-joins.ts) on the join it adds for `source-field` refs: their result
   * columns are named as Metabase names implicit-join columns (`User → State`, `fk_field_id`, the ref as sent).
   */
  'qp/implicit-join'?: true;
}

/** A column of a native saved question's result, as its `result_metadata` names it. */
export interface NativeColumn {
  name: string;
  base_type: string;
  display_name?: string;
}

export interface InnerQuery {
  /** A table id, or `card__<id>` for a saved question (replaced by its query during preprocessing). */
  'source-table'?: number | string;
  'source-query'?: InnerQuery;
  /** Set by preprocessing when the source is a native query (a native card used as a source). */
  native?: string;
  /** Set with `native`: the saved question's result columns (its `result_metadata`), when it has them. */
  'native-columns'?: NativeColumn[];
  /** Set with `native` by a row security policy's SQL question: the values of its `?` placeholders, in order. */
  'native-params'?: SqlParam[];
  /** Set with `native`: the card of the row security policy whose SQL this is (run for the caller, who may not write SQL). */
  'qp/row-policy-card'?: number;
  /** Set by preprocessing on a saved question's query spliced in as a source: the card's id (its errors name it). */
  'qp/stage-is-from-source-card'?: number;
  joins?: Join[];
  expressions?: Record<string, Expr>;
  fields?: Ref[];
  filter?: Filter;
  aggregation?: Aggregation[];
  breakout?: Ref[];
  'order-by'?: OrderBy[];
  limit?: number;
  page?: { page: number; items: number };
}

export interface TemplateTag {
  id?: string;
  name: string;
  'display-name'?: string;
  type: 'text' | 'number' | 'date' | 'dimension' | 'card' | 'snippet';
  required?: boolean;
  default?: unknown;
  dimension?: FieldRef;
  'widget-type'?: string;
  'card-id'?: number;
  'snippet-name'?: string;
  'snippet-id'?: number;
}

export interface NativeQuery {
  query: string;
  'template-tags'?: Record<string, TemplateTag>;
}

/** A parameter value sent with a query: `{type, target, value}`. */
export interface ParameterValue {
  id?: string;
  slug?: string;
  type: string;
  target?: unknown[];
  value: unknown;
}

/** No query returns more rows than this (Metabase's `absolute-max-results`, the download limit): larger `constraints` are clamped. */
export const ABSOLUTE_MAX_RESULTS = 1_048_575;

export interface Constraints {
  'max-results'?: number;
  'max-results-bare-rows'?: number;
}

export interface DatasetQuery {
  database: number;
  type: 'query' | 'native';
  query?: InnerQuery;
  native?: NativeQuery;
  parameters?: ParameterValue[];
  constraints?: Constraints;
  middleware?: Record<string, unknown>;
}
