import type { Filter, InnerQuery, NativeColumn, NativeQuery } from '../mbql/types';

/**
 * Row and column security as the engine sees it: what the host (the row-security module) resolved for the caller.
 * The engine never reads policies or user attributes itself.
 */
export interface RowPolicies {
  /** The tables of this database whose rows are restricted for the caller, by table id; empty when none is. */
  restrictions(dbId: number): Promise<ReadonlyMap<number, TableRestriction>>;
}

/** The applying policies of one table: a row is visible when any one of its filters lets it through (OR). */
export interface TableRestriction {
  tableId: number;
  /** Names of the groups whose policies apply (errors name them). */
  groups: string[];
  filters: RowFilter[];
  /**
   * Question policies: the saved question's (MBQL) query stands in for the table wherever it is read, so only its
   * rows and its columns are visible. Several questions that differ only in their filters are one query whose rows
   * pass any of them (their UNION); each part's own filter and its conditions filter that query's source.
   */
  question?: { groups: string[]; cardIds: number[]; query: InnerQuery; parts: QuestionPart[] };
  /** A SQL question policy: its SQL, its template tags filled in from the caller's attributes, stands in for the table. */
  nativeQuestion?: NativeQuestion;
  /** Set when the policies cannot be applied: a query that reads the table fails with this message. */
  refusal?: string;
}

/** One question policy of a combined question: the question's own filter (if any) and its attribute conditions. */
export interface QuestionPart {
  group: string;
  filter?: Filter;
  conditions: RowCondition[];
}

/** One filter policy: every condition must hold (AND). No conditions: the policy lets every row through. */
export interface RowFilter {
  group: string;
  conditions: RowCondition[];
}

/** A column matched against a user attribute: the row's value must be one of the attribute's. */
export interface RowCondition {
  fieldId: number;
  /** For messages. */
  column: string;
  baseType: string;
  attribute: string;
  /** The attribute as stored; undefined (or null) when the user lacks it. */
  value: unknown;
}

/** A policy's SQL question and the template tags its attributes fill in. */
export interface NativeQuestion {
  group: string;
  cardId: number;
  query: NativeQuery;
  /** Its result columns (`result_metadata`): what the caller's queries on the table can see. */
  columns: NativeColumn[];
  bindings: TagBinding[];
}

/** A template tag of a policy's SQL question given the value of a user attribute. */
export interface TagBinding {
  tag: string;
  /** A field filter (`dimension`) tag, or a plain variable. */
  kind: 'variable' | 'dimension';
  attribute: string;
  /** The attribute as stored; undefined (or null) when the user lacks it. */
  value: unknown;
}
