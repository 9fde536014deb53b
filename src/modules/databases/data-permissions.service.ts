import { Injectable, Optional } from '@nestjs/common';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { Impersonation } from '../../schema/impersonation.entity';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import type { DatabasePermission } from '../../schema/database-permission.entity';
import type { TablePermission } from '../../schema/table-permission.entity';
import { ImpersonationService, RowPoliciesService, RowSecurityService, type RowPolicyView } from '../row-security';
import { DatabasePermissionsRepository, levelFor, levelsOf, type GroupLevels, type PermissionTable } from '../warehouse';
import { DatabasesRepository } from './databases.repository';
import { applyEdit, storedLevels } from './data-permissions-apply';
import { ADMIN_ENTRY, renderEntry, sameValue, type DataPermissionsGraph, type GraphEntry } from './data-permissions-graph';
import { parseGraphEdit, type EntryEdit, type SandboxEdit } from './data-permissions-parse';
import { impersonationPlan, withImpersonation } from './data-permissions-impersonation';
import { sandboxPlan } from './data-permissions-sandboxes';

export type { DataPermissionsGraph, GraphEntry } from './data-permissions-graph';

const STALE = 'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.';
const ADMIN_KEYS = ['view-data', 'create-queries', 'download', 'data-model', 'details', 'data', 'native'] as const;

/** Which part of the graph to show: one database, one group, some groups, or all of it. */
export interface GraphScope {
  dbId?: number;
  groupId?: number;
  groupIds?: number[];
}

/**
 * The data permissions graph: per group, per database, Metabase's `view-data`, `create-queries` and `download`,
 * database-wide or per schema and table (data-permissions-graph.ts shows it, data-permissions-parse.ts reads an
 * edit, data-permissions-apply.ts works out what an edit stores). Administrators always have full access and are not
 * part of what can be changed. A revision guards against two admins overwriting each other's edits.
 */
@Injectable()
export class DataPermissionsService {
  constructor(
    private readonly perms: DatabasePermissionsRepository,
    private readonly databases: DatabasesRepository,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
    @Optional() private readonly rowSecurity?: RowSecurityService,
    @Optional() private readonly impersonation?: ImpersonationService,
    @Optional() private readonly policies?: RowPoliciesService,
  ) {}

  async graph(scope: GraphScope = {}): Promise<DataPermissionsGraph> {
    const [dbs, groupIds] = await Promise.all([this.databases.list(scope.dbId ? [scope.dbId] : undefined), this.perms.groupIds()]);
    if (scope.dbId && !dbs.length) throw new NotFoundError();
    if (scope.groupId && !groupIds.includes(scope.groupId)) throw new NotFoundError();
    const shownGroups = groupIds.filter((g) => (scope.groupId ? g === scope.groupId : !scope.groupIds || scope.groupIds.includes(g)));
    const [grants, tableGrants, tables, policies, impersonations] = await Promise.all([
      this.perms.all(),
      this.perms.allTableGrants(),
      this.perms.tables(dbs.map((d) => d.id)),
      this.rowSecurity?.policyTables() ?? [],
      this.impersonation?.all() ?? [],
    ]);
    const impersonated = new Set(impersonations.map((p) => `${p.group_id}:${p.db_id}`));
    const policyTables = groupBy(policies, (p) => String(p.group_id));
    const grantOf = new Map(grants.map((g) => [`${g.group_id}:${g.db_id}`, g]));
    const tableGrantsOf = groupBy(tableGrants, (t) => `${t.group_id}:${t.db_id}`);
    const tablesOf = groupBy(tables, (t) => String(t.db_id));
    const groups: DataPermissionsGraph['groups'] = {};
    for (const gid of shownGroups) {
      groups[gid] = {};
      for (const db of dbs) {
        const key = `${gid}:${db.id}`;
        const grant = grantOf.get(key);
        groups[gid][db.id] =
          gid === ADMIN_GROUP_ID
            ? ADMIN_ENTRY
            : withImpersonation(
                renderEntry(
                  withPolicies(
                    levelsOf(grant, tableGrantsOf.get(key) ?? []),
                    tablesOf.get(String(db.id)) ?? [],
                    policyTables.get(String(gid)),
                  ),
                  grant,
                  tablesOf.get(String(db.id)) ?? [],
                ),
                impersonated.has(key),
              );
      }
    }
    return { revision: await this.perms.revision(), groups };
  }

  /**
   * Parts present that differ from what the graph shows overwrite; the rest stays. `revision` must be the one the
   * caller read, unless `force`. The answer: the whole graph for clients of its earlier format (our admin screen
   * keeps it as its copy of the graph), only the groups sent for clients of Metabase's current format (as Metabase
   * answers), only the revision with `skipGraph`.
   */
  async update(
    body: unknown,
    opts: { force?: boolean; skipGraph?: boolean } = {},
  ): Promise<Partial<DataPermissionsGraph> & { impersonations?: Impersonation[]; sandboxes?: RowPolicyView[] }> {
    const edit = parseGraphEdit(body);
    const [dbs, groupIds] = await Promise.all([this.databases.list(), this.perms.groupIds()]);
    const dbIds = new Set(dbs.map((d) => d.id));
    const tablesOf = groupBy(await this.perms.tables([...dbIds]), (t) => String(t.db_id));
    const shown = new Set((await (this.impersonation?.all() ?? [])).map((p) => `${p.group_id}:${p.db_id}`));
    // Which pairs get, keep or lose a policy; refused (400) before anything is stored.
    const plan = impersonationPlan(edit, shown, new Map(dbs.map((d) => [d.id, d.engine])), groupIds);
    const withPolicy = new Set((await (this.rowSecurity?.policyTables() ?? [])).map((p) => `${p.group_id}:${p.table_id}`));
    const sandboxes = sandboxPlan(edit, withPolicy, tablesOf);
    // Each policy sent is checked as POST /api/mt/gtap checks one (group, table, question, attributes).
    const policiesToStore: Array<SandboxEdit & { db_id: number }> = [];
    for (const p of sandboxes.store) {
      if (!this.policies) throw ValidationError.of('sandboxes', 'row and column security is not available.', p);
      policiesToStore.push({ ...p, db_id: await this.policies.validate(p) });
    }
    await this.perms.transaction(async (tx) => {
      // First, so that of two edits made from one revision the second waits for the first and then fails.
      const from = opts.force ? await this.perms.revision(tx) : edit.revision;
      if (!(await this.perms.bumpRevision(from, tx))) throw new MessageError(STALE, 409);
      for (const [gid, entries] of Object.entries(edit.groups)) {
        const groupId = Number(gid);
        if (!groupIds.includes(groupId)) throw ValidationError.of('groups', `group ${gid} does not exist.`, gid);
        if (groupId === ADMIN_GROUP_ID) {
          // Clients send back the whole graph they read, Administrators included: fine as long as nothing changes.
          if (Object.values(entries).every(isAdminEntry)) continue;
          throw new MessageError('You cannot change the permissions of the Administrators group.');
        }
        for (const [dbId, entry] of Object.entries(entries)) {
          const id = Number(dbId);
          if (!dbIds.has(id)) throw ValidationError.of('groups', `database ${dbId} does not exist.`, dbId);
          const tables = tablesOf.get(dbId) ?? [];
          const [grant, tableGrants] = await Promise.all([this.perms.grant(groupId, id, tx), this.perms.tableGrants(groupId, id, tx)]);
          const current = levelsOf(grant ?? undefined, tableGrants);
          const rendered = withImpersonation(renderEntry(current, grant ?? undefined, tables), shown.has(`${groupId}:${id}`));
          const next = applyEdit(current, rendered, entry, tables, id);
          const stored = storedLevels(next, tables);
          await this.perms.setLevels(groupId, id, stored.grant, stored.rows, entry.upload, tx);
        }
      }
      for (const p of plan.remove) await this.impersonation!.removeFor(p.group_id, p.db_id, tx);
      for (const p of plan.store) await this.impersonation!.replace(p.group_id, p.db_id, p.attribute, tx);
      if (policiesToStore.length || sandboxes.remove.length) await this.policies!.applyInGraph(policiesToStore, sandboxes.remove, tx);
    });
    // Access is read from the app DB on each request today; the event is for any instance-level copy of it.
    await this.events.publish({ topic: 'permissions' });
    if (opts.skipGraph) return { revision: await this.perms.revision() };
    const graph = await this.graph(edit.currentFormat ? { groupIds: Object.keys(edit.groups).map(Number) } : {});
    // As Metabase answers: the policies sent, as stored.
    const out: Awaited<ReturnType<DataPermissionsService['update']>> = graph;
    if (edit.impersonations) {
      const sent = new Set(edit.impersonations.map((p) => `${p.group_id}:${p.db_id}`));
      out.impersonations = (await this.impersonation!.all()).filter((p) => sent.has(`${p.group_id}:${p.db_id}`));
    }
    if (edit.sandboxes && this.policies) {
      const sent = new Set(edit.sandboxes.map((p) => `${p.group_id}:${p.table_id}`));
      const all = (await this.policies.list()) as RowPolicyView[];
      out.sandboxes = all.filter((p) => sent.has(`${p.group_id}:${p.table_id}`));
    }
    return out;
  }
}

function isAdminEntry(entry: EntryEdit): boolean {
  return ADMIN_KEYS.every((k) => entry.sent[k] === undefined || sameValue(entry.sent[k], ADMIN_ENTRY[k as keyof GraphEntry]));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export type { DatabasePermission, PermissionTable, TablePermission };

/**
 * A group's levels with its policies shown: a table it may view through a row and column security policy is
 * `sandboxed` (stored as unrestricted; the policy is what restricts it, as in Metabase).
 */
function withPolicies(levels: GroupLevels, tables: PermissionTable[], policies: Array<{ table_id: number }> | undefined): GroupLevels {
  const restricted = new Set((policies ?? []).map((p) => p.table_id));
  if (!tables.some((t) => restricted.has(t.id))) return levels;
  const viewData = new Map(
    tables.map((t) => {
      const level = levelFor(levels.viewData, t.id, 'blocked');
      return [t.id, level === 'unrestricted' && restricted.has(t.id) ? 'sandboxed' : level] as const;
    }),
  );
  return { ...levels, viewData: viewData as unknown as GroupLevels['viewData'] };
}
