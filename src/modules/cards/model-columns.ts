import { parseJson } from '../../common/database/stored-json';
import type { CompiledColumn } from '../../query-engine/compile/contract';
import type { QueryResults } from '../../query-engine/postprocess/results';
import type { DatasetAnswer, DatasetStream } from '../dataset';

/** What an admin or analyst may edit in a model's column metadata, and so what its stored metadata says over the run's. */
const EDITABLE = ['display_name', 'description', 'semantic_type', 'fk_target_field_id', 'visibility_type', 'settings'] as const;

type Edited = Partial<Record<(typeof EDITABLE)[number], unknown>> & { name?: unknown };

/**
 * A model's run answers with the columns as its metadata names them (a renamed column shows its new name), as
 * Metabase's does. `resultMetadata` is the model's stored `result_metadata`; columns are matched by name. A new
 * answer: the run's own may be shared with other waiters.
 */
export function withModelColumns<T extends DatasetAnswer | DatasetStream>(answer: T, resultMetadata: string | null): T {
  if (answer.status === 'failed') return answer;
  const edited = new Map<string, Edited>();
  for (const c of (parseJson<unknown>(resultMetadata, null) as Edited[] | null) ?? []) {
    if (c && typeof c === 'object' && typeof c.name === 'string') edited.set(c.name, c);
  }
  if (edited.size === 0) return answer;
  const data = answer.status === 'streaming' ? (answer as DatasetStream).head.data : (answer as QueryResults).data;
  const merged = {
    ...data,
    cols: data.cols.map((col) => overlay(col, edited.get(col.name))),
    results_metadata: { ...data.results_metadata, columns: data.results_metadata.columns.map((col) => overlayAny(col, edited)) },
  };
  if (answer.status === 'streaming') {
    const stream = answer as DatasetStream;
    return { ...stream, head: { ...stream.head, data: merged } } as T;
  }
  return { ...answer, data: merged } as T;
}

function overlay(col: CompiledColumn, edit: Edited | undefined): CompiledColumn {
  if (!edit) return col;
  const out: Record<string, unknown> = { ...col };
  for (const key of EDITABLE) {
    const value = edit[key];
    if (value === undefined || (key === 'display_name' && (typeof value !== 'string' || value === ''))) continue;
    out[key] = value;
  }
  return out as CompiledColumn;
}

function overlayAny(col: unknown, edited: Map<string, Edited>): unknown {
  if (!col || typeof col !== 'object') return col;
  const name = (col as { name?: unknown }).name;
  return typeof name === 'string' ? overlay(col as CompiledColumn, edited.get(name)) : col;
}
