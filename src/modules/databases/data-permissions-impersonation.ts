import { ValidationError } from '../../common/errors/api-errors';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import type { GraphEntry } from './data-permissions-graph';
import type { GraphEdit, ImpersonationEdit } from './data-permissions-parse';

/** Engines whose queries can run under a warehouse role (query-engine/execute/drivers/impersonating-driver.ts). */
const ROLE_ENGINES = new Set(['postgres', 'mysql']);

export interface ImpersonationPlan {
  /** Policies to store, replacing the pair's existing one. */
  store: ImpersonationEdit[];
  /** Pairs moved off `impersonated`: their policy goes. */
  remove: Array<{ group_id: number; db_id: number }>;
}

const pair = (groupId: number | string, dbId: number | string) => `${groupId}:${dbId}`;

/**
 * What a PUT of the graph does to impersonation policies. `existing`: the pairs (`group:db`) that have one today, which
 * the graph shows as `impersonated` and a client sends back as read without resending the policy. A pair set to
 * `impersonated` needs a policy, sent or existing; a policy is sent only for a pair that is (or stays) impersonated;
 * a pair given another view-data (or, in the earlier format, no data access) loses its policy.
 */
export function impersonationPlan(
  edit: GraphEdit,
  existing: ReadonlySet<string>,
  engines: ReadonlyMap<number, string>,
  groupIds: readonly number[],
): ImpersonationPlan {
  const sent = new Map((edit.impersonations ?? []).map((p) => [pair(p.group_id, p.db_id), p]));
  const plan: ImpersonationPlan = { store: [], remove: [] };
  const impersonated = new Set<string>();
  for (const [gid, entries] of Object.entries(edit.groups)) {
    for (const [dbId, entry] of Object.entries(entries)) {
      const key = pair(gid, dbId);
      if (entry.impersonated) {
        impersonated.add(key);
        if (!sent.has(key) && !existing.has(key))
          throw ValidationError.of(
            'groups',
            `view-data \`impersonated\` needs a policy in \`impersonations\` for group ${gid} and database ${dbId}.`,
            entry.sent,
          );
        continue;
      }
      const losesAccess = entry.viewData !== undefined || (entry.legacy !== undefined && entry.legacy.data === 'no');
      if (losesAccess && existing.has(key)) plan.remove.push({ group_id: Number(gid), db_id: Number(dbId) });
    }
  }
  for (const [key, p] of sent) {
    if (!impersonated.has(key) && !existing.has(key))
      throw ValidationError.of(
        'impersonations',
        `group ${p.group_id} needs view-data \`impersonated\` on database ${p.db_id} for its impersonation policy.`,
        p,
      );
    if (!groupIds.includes(p.group_id) || p.group_id === ADMIN_GROUP_ID)
      throw ValidationError.of('impersonations', `group ${p.group_id} does not exist or cannot be impersonated.`, p);
    const engine = engines.get(p.db_id);
    if (engine === undefined) throw ValidationError.of('impersonations', `database ${p.db_id} does not exist.`, p);
    if (!ROLE_ENGINES.has(engine))
      throw ValidationError.of('impersonations', `connection impersonation is not supported on ${engine} databases.`, p);
    plan.store.push(p);
  }
  return plan;
}

/** A group's entry with its impersonation shown: data access under a policy is view-data `impersonated`. */
export function withImpersonation(entry: GraphEntry, impersonated: boolean): GraphEntry {
  return impersonated && entry['view-data'] === 'unrestricted' ? { ...entry, 'view-data': 'impersonated' } : entry;
}
