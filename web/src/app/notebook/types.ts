/** An MBQL 5 query as current clients send it: `{"lib/type": "mbql/query", database, stages: [...]}`. */
export interface Mbql5Query {
  'lib/type': 'mbql/query';
  database: number;
  stages: Array<Record<string, unknown>>;
}

export interface NotebookProps {
  /** The query to edit: MBQL 5, or a saved question's legacy `{type: "query", query: {...}}` (converted on open). */
  query: unknown | null;
  /** Every edit, as MBQL 5. */
  onChange(query: Mbql5Query): void;
}
