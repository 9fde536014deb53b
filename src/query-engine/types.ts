/**
 * Types every part of the query engine shares (compile, native substitution, execute): kept here so that
 * compile/ and native/ do not depend on execute/. execute/drivers/driver.ts re-exports them.
 */
export type Engine = 'postgres' | 'mysql' | 'sqlite' | 'duckdb';
export const ENGINES: readonly Engine[] = ['postgres', 'mysql', 'sqlite', 'duckdb'];

/** A bound value (Dates are sent as their ISO-8601 UTC string). */
export type SqlParam = string | number | bigint | boolean | null | Date;
