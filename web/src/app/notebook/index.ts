/**
 * The question builder (notebook). The question page (`../question/`) draws it for every question that is not native
 * SQL and runs what it produces; the notebook itself only edits the query (and previews its steps).
 */
export type { NotebookProps, Mbql5Query } from './types';
export { Notebook } from './Notebook';
export { toMbql5 } from './to-mbql5';
