import { Injectable, Optional } from '@nestjs/common';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import { DataAccess, DatabasePermission, DownloadAccess, NativeAccess, UploadAccess } from '../../schema/database-permission.entity';
import { Access, DatabasePermissionsRepository } from '../warehouse';
import { DatabasesRepository } from './databases.repository';

const DATA: DataAccess[] = ['unrestricted', 'no'];
const NATIVE: NativeAccess[] = ['write', 'none'];
const DOWNLOAD: DownloadAccess[] = ['full', 'limited', 'none'];

/** One group's access to one database as the graph shows it; `download` in Metabase's shape. */
export interface GraphAccess {
  data: DataAccess;
  native: NativeAccess;
  download: { schemas: DownloadAccess };
  /** CSV uploads: shown only when granted (absent is `no`); admins always may upload. */
  upload?: UploadAccess;
}

export interface DataPermissionsGraph {
  revision: number;
  groups: Record<string, Record<string, GraphAccess>>;
}

/** An edit of one group's access to one database: `download` may be left out (see resolve()). */
type GraphEdit = Omit<Access, 'download'> & { download?: DownloadAccess; upload?: UploadAccess };

const ADMIN_ACCESS: GraphAccess = { data: 'unrestricted', native: 'write', download: { schemas: 'full' } };

/**
 * The data permissions graph: per group, per database, whether it may query (`data`), write native SQL (`native`)
 * and download results (`download`: up to 1,048,575 rows, 10,000, or none). Administrators always have full access
 * and are not part of what can be changed. A revision guards against two admins overwriting each other's edits.
 */
@Injectable()
export class DataPermissionsService {
  constructor(
    private readonly perms: DatabasePermissionsRepository,
    private readonly databases: DatabasesRepository,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {}

  async graph(): Promise<DataPermissionsGraph> {
    const [dbs, grants, groupIds] = await Promise.all([this.databases.list(), this.perms.all(), this.perms.groupIds()]);
    const groups: DataPermissionsGraph['groups'] = {};
    for (const gid of groupIds) {
      groups[gid] = {};
      for (const db of dbs) {
        const g = grants.find((p) => p.group_id === gid && p.db_id === db.id);
        groups[gid][db.id] = gid === ADMIN_GROUP_ID ? ADMIN_ACCESS : shown(g);
      }
    }
    return { revision: await this.perms.revision(), groups };
  }

  /** Parts present overwrite; the rest stays. `revision` must be the one the caller read. */
  async update(body: unknown): Promise<DataPermissionsGraph> {
    const { revision, groups } = parseGraph(body);
    const [dbIds, groupIds] = await Promise.all([this.databases.list().then((d) => new Set(d.map((x) => x.id))), this.perms.groupIds()]);
    await this.perms.transaction(async (tx) => {
      // First, so that of two edits made from one revision the second waits for the first and then fails.
      if (!(await this.perms.bumpRevision(revision, tx))) {
        throw new MessageError(
          'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.',
          409,
        );
      }
      for (const [gid, dbs] of Object.entries(groups)) {
        const groupId = Number(gid);
        if (!groupIds.includes(groupId)) throw ValidationError.of('groups', `group ${gid} does not exist.`, gid);
        if (groupId === ADMIN_GROUP_ID) {
          // Clients send back the whole graph they read, Administrators included: fine as long as nothing changes.
          if (Object.values(dbs).every((a) => a.data === 'unrestricted' && a.native === 'write' && (a.download ?? 'full') === 'full'))
            continue;
          throw new MessageError('You cannot change the permissions of the Administrators group.');
        }
        for (const [dbId, edit] of Object.entries(dbs)) {
          if (!dbIds.has(Number(dbId))) throw ValidationError.of('groups', `database ${dbId} does not exist.`, dbId);
          await this.perms.set(groupId, Number(dbId), resolve(edit, await this.perms.grant(groupId, Number(dbId), tx)), tx);
          // Uploads need data access; an edit without `upload` keeps the group's setting.
          if (edit.data === 'no' || edit.upload) {
            await tx.update(
              DatabasePermission,
              { group_id: groupId, db_id: Number(dbId) },
              { upload: edit.data === 'no' ? 'no' : edit.upload },
            );
          }
        }
      }
    });
    // Access is read from the app DB on each request today; the event is for any instance-level copy of it.
    await this.events.publish({ topic: 'permissions' });
    return this.graph();
  }
}

/** A grant as the graph shows it: what takes effect (no grant at all is no access). */
function shown(g: DatabasePermission | undefined): GraphAccess {
  if (!g || g.data !== 'unrestricted') return { data: 'no', native: 'none', download: { schemas: 'none' } };
  return { data: g.data, native: g.native, download: { schemas: g.download }, ...(g.upload === 'yes' ? { upload: 'yes' as const } : {}) };
}

/**
 * What is stored for an edit: native SQL and downloads only together with data access (what takes effect). An edit
 * without `download` (clients of the graph before download permissions) keeps the group's level when it already
 * had data access, and otherwise gets `full`, what data access has always allowed and what All Users get on a new
 * database.
 */
function resolve(edit: GraphEdit, stored: DatabasePermission | null): Access {
  if (edit.data === 'no') return { data: 'no', native: 'none', download: 'none' };
  const kept = stored?.data === 'unrestricted' ? stored.download : 'full';
  return { data: edit.data, native: edit.native, download: edit.download ?? kept };
}

function parseGraph(body: unknown): { revision: number; groups: Record<string, Record<string, GraphEdit>> } {
  const b = body as { revision?: unknown; groups?: unknown } | null;
  if (!b || typeof b !== 'object') throw ValidationError.of('body', 'value must be a map.', body);
  if (!Number.isInteger(b.revision) || (b.revision as number) < 0)
    throw ValidationError.of('revision', 'value must be an integer.', b.revision);
  if (!b.groups || typeof b.groups !== 'object' || Array.isArray(b.groups))
    throw ValidationError.of('groups', 'value must be a map.', b.groups);
  const groups: Record<string, Record<string, GraphEdit>> = {};
  for (const [gid, dbs] of Object.entries(b.groups as Record<string, unknown>)) {
    if (!/^[1-9]\d{0,9}$/.test(gid) || !dbs || typeof dbs !== 'object')
      throw ValidationError.of('groups', 'value must map group ids to maps of database ids.', gid);
    groups[gid] = {};
    for (const [dbId, access] of Object.entries(dbs as Record<string, unknown>)) {
      const a = access as { data?: unknown; native?: unknown; download?: unknown; upload?: unknown } | null;
      if (!/^[1-9]\d{0,9}$/.test(dbId) || !a || !DATA.includes(a.data as DataAccess) || !NATIVE.includes(a.native as NativeAccess)) {
        throw ValidationError.of('groups', 'each database must map to {data: `unrestricted` | `no`, native: `write` | `none`}.', access);
      }
      const edit: GraphEdit = { data: a.data as DataAccess, native: a.data === 'no' ? 'none' : (a.native as NativeAccess) };
      if (a.download !== undefined) edit.download = parseDownload(a.download);
      if (a.upload !== undefined) {
        if (a.upload !== 'yes' && a.upload !== 'no')
          throw ValidationError.of('groups', "each database's upload must be `yes` or `no`.", a.upload);
        edit.upload = a.upload;
      }
      groups[gid][dbId] = edit;
    }
  }
  return { revision: b.revision as number, groups };
}

/** `{schemas: "full" | "limited" | "none"}`; Metabase's per-schema maps (granular downloads) are not supported. */
function parseDownload(raw: unknown): DownloadAccess {
  const schemas = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { schemas?: unknown }).schemas : undefined;
  if (!DOWNLOAD.includes(schemas as DownloadAccess) || Object.keys(raw as object).length !== 1) {
    throw ValidationError.of('groups', "each database's download must be {schemas: `full` | `limited` | `none`}.", raw);
  }
  return schemas as DownloadAccess;
}
