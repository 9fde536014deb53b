import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { CollectionGrantsRepository, GrantChange } from './collection-grants.repository';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { topLevelId } from './location';

type Perm = CollectionPerm | 'none';
export type GroupGraph = Record<string, Perm>;
export interface Graph {
  revision: number;
  groups: Record<string, GroupGraph>;
}

export const MSG_STALE_GRAPH =
  'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.';
const PERMS: readonly string[] = ['read', 'write', 'none'];

/**
 * The collection permission graph of a namespace: every group but Administrators, by the Root and every collection
 * outside personal trees, `read`, `write` or `none`. A PUT names a revision (409 when stale), changes only the
 * entries it sends, and writes a collection_permission_revision row.
 */
@Injectable()
export class CollectionGraphService {
  constructor(
    private readonly grants: CollectionGrantsRepository,
    private readonly collections: CollectionsRepository,
  ) {}

  async graph(namespace: string | null, tx?: EntityManager): Promise<Graph> {
    const [groups, rows, grants, revision] = [
      await this.grants.groupIds(tx),
      await this.sharedCollections(namespace),
      await this.grants.graphRows(namespace, tx),
      await this.grants.revision(tx),
    ];
    const out: Record<string, GroupGraph> = {};
    for (const g of groups) {
      const entry: GroupGraph = { root: 'none' };
      for (const c of rows) entry[String(c.id)] = 'none';
      out[String(g)] = entry;
    }
    for (const r of grants) {
      const entry = out[String(r.group_id)];
      const key = r.collection_id === null ? 'root' : String(r.collection_id);
      if (entry && key in entry && rank(r.perm) > rank(entry[key])) entry[key] = r.perm;
    }
    return { revision, groups: out };
  }

  async update(
    user: AuthUser,
    namespace: string | null,
    body: { revision?: number | null; groups: Record<string, unknown> },
    force: boolean,
  ): Promise<number> {
    const wanted = parseGroups(body.groups);
    const ids = [...new Set(wanted.flatMap((w) => w.entries.map((e) => e.collection_id).filter((id): id is number => id !== null)))];
    const rows = await this.collections.findByIds(ids);
    const shared = new Map((await this.sharedAmong(rows, namespace)).map((c) => [c.id, c]));
    for (const id of ids) {
      if (!shared.has(id))
        throw ValidationError.of('groups', `collection ${id} is not a collection of this namespace outside personal collections.`, id);
    }
    return this.grants.transaction(async (tx) => {
      await this.grants.lockGraph(tx);
      const current = await this.graph(namespace, tx);
      if (!force && body.revision !== current.revision) throw new MessageError(MSG_STALE_GRAPH, 409);
      const changes: GrantChange[] = [];
      const before: Record<string, GroupGraph> = {};
      const after: Record<string, GroupGraph> = {};
      for (const w of wanted) {
        const had = current.groups[String(w.group_id)];
        if (!had) throw ValidationError.of('groups', `group ${w.group_id} does not exist or is the Administrators group.`, w.group_id);
        for (const e of w.entries) {
          const key = e.collection_id === null ? 'root' : String(e.collection_id);
          if (had[key] === e.perm) continue;
          (before[w.group_id] ??= {})[key] = had[key];
          (after[w.group_id] ??= {})[key] = e.perm;
          changes.push({ group_id: w.group_id, collection_id: e.collection_id, perm: e.perm });
        }
      }
      await this.grants.apply(tx, changes, namespace);
      return this.grants.addRevision(tx, before, after, user.id);
    });
  }

  /** Collections of the namespace outside personal trees. */
  private async sharedCollections(namespace: string | null): Promise<CollectionRow[]> {
    const rows = await this.collections.inNamespace({ namespace });
    const personal = new Set(rows.filter((c) => c.personal_owner_id !== null).map((c) => c.id));
    return rows.filter((c) => !personal.has(topLevelId(c)));
  }

  private async sharedAmong(rows: CollectionRow[], namespace: string | null): Promise<CollectionRow[]> {
    const inNs = rows.filter((c) => c.namespace === namespace);
    const tops = await this.collections.findByIds([...new Set(inNs.map(topLevelId))]);
    const personal = new Set(tops.filter((c) => c.personal_owner_id !== null).map((c) => c.id));
    return inNs.filter((c) => !personal.has(topLevelId(c)));
  }
}

const rank = (p: Perm): number => (p === 'write' ? 2 : p === 'read' ? 1 : 0);

/** `{"<groupId>": {"root" | "<collectionId>": "read" | "write" | "none"}}`, checked entry by entry. */
function parseGroups(
  groups: Record<string, unknown>,
): Array<{ group_id: number; entries: Array<{ collection_id: number | null; perm: Perm }> }> {
  const bad = (why: string, received: unknown) => ValidationError.of('groups', why, received);
  return Object.entries(groups).map(([g, perms]) => {
    if (!/^[1-9]\d{0,8}$/.test(g)) throw bad('group ids must be integers greater than zero.', g);
    if (typeof perms !== 'object' || perms === null || Array.isArray(perms))
      throw bad('each group must map collection ids (or "root") to permissions.', perms);
    const entries = Object.entries(perms as Record<string, unknown>).map(([k, p]) => {
      if (k !== 'root' && !/^[1-9]\d{0,8}$/.test(k)) throw bad('collection ids must be integers greater than zero, or "root".', k);
      if (typeof p !== 'string' || !PERMS.includes(p)) throw bad('value must be one of: `read`, `write`, `none`.', p);
      return { collection_id: k === 'root' ? null : Number(k), perm: p as Perm };
    });
    return { group_id: Number(g), entries };
  });
}
