import { useCallback, useMemo, useState } from 'react';

/** A graph's `groups`: per group id, per key (a database id, a collection id or `root`), a value. */
export type GraphGroups<V> = Record<string, Record<string, V>>;

/**
 * The admin's unsaved edits on top of a graph as read (never a copy of the graph: the server's answer stays in the
 * query cache). `changes` holds only the entries that differ from what was read, which is what a save sends.
 */
export function useGraphDraft<V>(read: GraphGroups<V> | undefined, same: (a: V, b: V) => boolean) {
  const [edits, setEdits] = useState<GraphGroups<V>>({});

  const value = useCallback((group: string, key: string): V | undefined => edits[group]?.[key] ?? read?.[group]?.[key], [edits, read]);

  const set = useCallback(
    (changes: Array<{ group: string; key: string; value: V }>) =>
      setEdits((prev) => {
        const next: GraphGroups<V> = { ...prev };
        for (const c of changes) {
          const row = { ...(next[c.group] ?? {}) };
          const original = read?.[c.group]?.[c.key];
          if (original !== undefined && same(original, c.value)) delete row[c.key];
          else row[c.key] = c.value;
          if (Object.keys(row).length) next[c.group] = row;
          else delete next[c.group];
        }
        return next;
      }),
    [read, same],
  );

  const count = useMemo(() => Object.values(edits).reduce((n, row) => n + Object.keys(row).length, 0), [edits]);
  const clear = useCallback(() => setEdits({}), []);
  return { changes: edits, value, set, count, clear };
}
