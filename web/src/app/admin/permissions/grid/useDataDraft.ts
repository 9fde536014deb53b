import { useCallback, useMemo, useState } from 'react';
import type { DataGraph, GraphUpdate, ImpersonationPolicy, PolicyChange, RowPolicy, RowPolicyBody } from '../../../api/permissions';
import { useGraphDraft, type GraphGroups } from '../draft';
import { fromEntry, toUpdate, type Access } from './levels';

const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v ?? null);
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
const key = (a: number | string, b: number | string) => `${a}:${b}`;

/**
 * The admin's unsaved data permissions on top of what the server holds: each group's access per database (the graph),
 * the row policies per group and table, and the impersonation attribute per group and database. Only changes are kept.
 */
export function useDataDraft(
  graph: DataGraph | undefined,
  policies: RowPolicy[] | undefined,
  impersonations: ImpersonationPolicy[] | undefined,
) {
  const read = useMemo<GraphGroups<Access> | undefined>(
    () =>
      graph &&
      Object.fromEntries(
        Object.entries(graph.groups).map(([g, dbs]) => [g, Object.fromEntries(Object.entries(dbs).map(([db, e]) => [db, fromEntry(e)]))]),
      ),
    [graph],
  );
  const access = useGraphDraft<Access>(read, same);
  const [policyEdits, setPolicyEdits] = useState<Record<string, RowPolicyBody | null>>({});
  const [roleEdits, setRoleEdits] = useState<Record<string, string>>({});

  const readPolicy = useCallback(
    (group: number, table: number) => policies?.find((p) => p.group_id === group && p.table_id === table) ?? null,
    [policies],
  );
  const policy = useCallback(
    (group: number, table: number): RowPolicyBody | null => {
      const k = key(group, table);
      return k in policyEdits ? policyEdits[k] : readPolicy(group, table);
    },
    [policyEdits, readPolicy],
  );
  const setPolicy = useCallback(
    (group: number, table: number, p: RowPolicyBody | null) =>
      setPolicyEdits((prev) => {
        const next = { ...prev };
        const was = readPolicy(group, table);
        const unchanged =
          p === null
            ? was === null
            : was !== null && same({ c: was.card_id, a: was.attribute_remappings }, { c: p.card_id, a: p.attribute_remappings });
        if (unchanged) delete next[key(group, table)];
        else next[key(group, table)] = p;
        return next;
      }),
    [readPolicy],
  );
  /** The tables of a group under a policy, as drafted. */
  const policyTables = useCallback(
    (group: number): number[] => {
      const ids = new Set((policies ?? []).filter((p) => p.group_id === group).map((p) => p.table_id));
      for (const [k, p] of Object.entries(policyEdits)) {
        const [g, t] = k.split(':').map(Number);
        if (g !== group) continue;
        if (p) ids.add(t);
        else ids.delete(t);
      }
      return [...ids];
    },
    [policies, policyEdits],
  );

  const role = useCallback(
    (group: number, db: number) =>
      roleEdits[key(group, db)] ?? impersonations?.find((p) => p.group_id === group && p.db_id === db)?.attribute ?? null,
    [roleEdits, impersonations],
  );
  const setRole = useCallback(
    (group: number, db: number, attribute: string) => setRoleEdits((prev) => ({ ...prev, [key(group, db)]: attribute })),
    [],
  );

  const clear = useCallback(() => {
    access.clear();
    setPolicyEdits({});
    setRoleEdits({});
  }, [access]);

  /** What a save sends: the graph's changed entries with the impersonations of pairs still impersonated; the policy changes. */
  const toSave = (revision: number): { graph: GraphUpdate; policies: PolicyChange[] } => {
    const groups = Object.fromEntries(
      Object.entries(access.changes).map(([g, dbs]) => [g, Object.fromEntries(Object.entries(dbs).map(([db, a]) => [db, toUpdate(a)]))]),
    );
    const roles = Object.entries(roleEdits)
      .map(([k, attribute]) => {
        const [group_id, db_id] = k.split(':').map(Number);
        return { group_id, db_id, attribute };
      })
      .filter((p) => access.value(String(p.group_id), String(p.db_id))?.view === 'impersonated');
    const policyChanges = Object.entries(policyEdits).map(([k, p]) => {
      const [group_id, table_id] = k.split(':').map(Number);
      return { group_id, table_id, policy: p };
    });
    return { graph: { revision, groups, ...(roles.length ? { impersonations: roles } : {}) }, policies: policyChanges };
  };

  const roleCount = Object.keys(roleEdits).filter((k) => {
    const [g, db] = k.split(':');
    return !access.changes[g]?.[db];
  }).length;
  const count = access.count + Object.keys(policyEdits).length + roleCount;
  return { access, policy, setPolicy, policyTables, role, setRole, clear, toSave, count };
}

export type DataDraft = ReturnType<typeof useDataDraft>;
