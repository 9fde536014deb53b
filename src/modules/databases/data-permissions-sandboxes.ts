import { ValidationError } from '../../common/errors/api-errors';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import type { PermissionTable } from '../warehouse';
import type { GraphEdit, SandboxEdit } from './data-permissions-parse';

export interface SandboxPlan {
  store: SandboxEdit[];
  /** Policies of tables given another view-data than `sandboxed`: they go. */
  remove: Array<{ group_id: number; table_id: number }>;
}

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const pair = (groupId: number | string, tableId: number | string) => `${groupId}:${tableId}`;

/**
 * What a PUT of the graph does to row and column security policies, decided before anything is stored. `existing`:
 * the pairs (`group:table`) with a policy today, which the graph shows as `sandboxed` and a client sends back as read
 * without resending the policy. A table sent as `sandboxed` needs a policy, sent or existing (else it would be open:
 * a sandboxed table is stored as unrestricted); a policy is sent only for a table that is (or stays) sandboxed; a
 * table sent with another view-data loses its policy.
 */
export function sandboxPlan(edit: GraphEdit, existing: ReadonlySet<string>, tablesOf: ReadonlyMap<string, PermissionTable[]>): SandboxPlan {
  const sent = new Map((edit.sandboxes ?? []).map((p) => [pair(p.group_id, p.table_id), p]));
  const plan: SandboxPlan = { store: [], remove: [] };
  const sandboxed = new Set<string>();
  for (const [gid, entries] of Object.entries(edit.groups)) {
    for (const [dbId, entry] of Object.entries(entries)) {
      const view = entry.sent['view-data'];
      // Only Metabase's current format names sandboxed tables; the earlier one's `data` leaves policies alone.
      if (view === undefined) continue;
      for (const table of tablesOf.get(dbId) ?? []) {
        const level = sentLevel(view, table);
        if (level === undefined) continue;
        const key = pair(gid, table.id);
        if (level === 'sandboxed') {
          sandboxed.add(key);
          if (!sent.has(key) && !existing.has(key))
            throw ValidationError.of(
              'groups',
              `view-data \`sandboxed\` needs a policy in \`sandboxes\` for group ${gid} and table ${table.id}.`,
              view,
            );
        } else if (sent.has(key)) {
          throw ValidationError.of(
            'sandboxes',
            `group ${gid} needs view-data \`sandboxed\` on table ${table.id} for its policy.`,
            sent.get(key),
          );
        } else if (existing.has(key)) plan.remove.push({ group_id: Number(gid), table_id: table.id });
      }
    }
  }
  for (const [key, p] of sent) {
    if (p.group_id === ADMIN_GROUP_ID) throw ValidationError.of('sandboxes', 'the Administrators group cannot be restricted.', p);
    if (!sandboxed.has(key) && !existing.has(key))
      throw ValidationError.of('sandboxes', `group ${p.group_id} needs view-data \`sandboxed\` on table ${p.table_id} for its policy.`, p);
    plan.store.push(p);
  }
  return plan;
}

/** The view-data a PUT sent for one table: database-wide, for its schema, or for the table itself; undefined if not named. */
function sentLevel(view: unknown, table: PermissionTable): unknown {
  if (typeof view === 'string') return view;
  if (!isMap(view)) return undefined;
  const schema = view[table.schema ?? ''];
  if (typeof schema === 'string') return schema;
  return isMap(schema) ? schema[String(table.id)] : undefined;
}
