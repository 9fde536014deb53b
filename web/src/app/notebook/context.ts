import type { Column } from './columns';
import type { Stage } from './mbql';
import type { Mbql5Query } from './types';

/** What every step reads: the query, its first stage, the columns it can pick, and how to change the stage. */
export interface StepProps {
  query: Mbql5Query;
  /** Which stage the steps edit: 0 has the data and joins; a later one works on the previous one's result. */
  stageIndex: number;
  stage: Stage;
  /** The data step's table or question (the group its own columns are listed under). */
  sourceName: string;
  /** The source's and the joins' columns. */
  joinedColumns: Column[];
  /** Those and the custom columns: what filters and summaries pick from. */
  columns: Column[];
  label(c: Column): string;
  /** The stage changed (keys set to undefined or an empty list are removed). */
  update(changes: Stage): void;
}

/**
 * Picker data for Mantine's Select: the columns grouped by where they come from, each labelled with its group when
 * that is not the source ("Products → Category"), so the chosen one reads unambiguously in the field too.
 */
export function columnOptions(columns: Column[], label: (c: Column) => string, filter: (c: Column) => boolean = () => true) {
  const groups = new Map<string, Array<{ value: string; label: string }>>();
  for (const c of columns.filter(filter)) {
    const items = groups.get(c.group) ?? [];
    items.push({ value: c.key, label: label(c) });
    groups.set(c.group, items);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}
