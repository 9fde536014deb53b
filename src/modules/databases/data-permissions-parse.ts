import { ValidationError } from '../../common/errors/api-errors';
import type {
  CreateQueriesAccess,
  DataAccess,
  DownloadAccess,
  NativeAccess,
  UploadAccess,
  ViewDataAccess,
} from '../../schema/database-permission.entity';
import type { PerSchema } from './data-permissions-graph';

/**
 * One database entry of a PUT, in either format: Metabase's current keys, the graph's earlier `data`/`native`, or
 * both (a client that read both and changed one set: the service applies the set that differs from what is stored).
 */
export interface EntryEdit {
  /** The entry as sent: a key sent back as it was read changes nothing. */
  sent: Record<string, unknown>;
  viewData?: PerSchema<ViewDataAccess>;
  createQueries?: PerSchema<CreateQueriesAccess>;
  download?: PerSchema<DownloadAccess>;
  legacy?: { data: DataAccess; native: NativeAccess };
  upload?: UploadAccess;
  /** A key only administrators have (`data-model` other than none, `details: yes`): refused for other groups. */
  grantsAdminOnly?: 'data-model' | 'details';
  /** `legacy-no-self-service`: data access without new queries, unless `create-queries` says otherwise. */
  noSelfService?: true;
  /** view-data `impersonated`: data access under the role of the group's impersonation policy (sent in `impersonations`). */
  impersonated?: true;
}

/** One policy of the PUT's `impersonations`. */
export interface ImpersonationEdit {
  group_id: number;
  db_id: number;
  attribute: string;
}

/** One policy of the PUT's `sandboxes` (Metabase's): it replaces the group's policy on the table, if any. */
export interface SandboxEdit {
  group_id: number;
  table_id: number;
  card_id: number | null;
  attribute_remappings: Record<string, unknown>;
}

export interface GraphEdit {
  revision: number;
  groups: Record<string, Record<string, EntryEdit>>;
  /** No entry uses `data`/`native`: a client of Metabase's current graph, answered as Metabase does. */
  currentFormat: boolean;
  /** Absent when the PUT sent none. */
  impersonations?: ImpersonationEdit[];
  /** Row and column security policies to store (data-permissions-sandboxes.ts); absent when the PUT sent none. */
  sandboxes?: SandboxEdit[];
}

const DATA: DataAccess[] = ['unrestricted', 'no'];
const NATIVE: NativeAccess[] = ['write', 'none'];
const DOWNLOAD: DownloadAccess[] = ['full', 'limited', 'none'];
const KNOWN = ['view-data', 'create-queries', 'download', 'data-model', 'details', 'data', 'native', 'upload'];
const ID = /^[1-9]\d{0,9}$/;

export const ENTRY_MESSAGE =
  'each database must map to {view-data, create-queries, download, data-model, details} or to ' +
  '{data: `unrestricted` | `no`, native: `write` | `none`}.';
export const DOWNLOAD_MESSAGE =
  "each database's download must be {schemas: `full` | `limited` | `none`}, " +
  'or per schema {schemas: {<schema>: level | {<table id>: level}}}.';
const DATA_MODEL_MESSAGE = "each database's data-model must be {schemas: `all` | `none`}, or per schema.";
const VIEW_MESSAGE =
  "each database's view-data must be `unrestricted`, `blocked`, `legacy-no-self-service`, `impersonated`, or per schema " +
  '{<schema>: `unrestricted` | `blocked` | {<table id>: `unrestricted` | `blocked` | `sandboxed`}}.';
const CREATE_MESSAGE =
  "each database's create-queries must be `query-builder-and-native`, `query-builder`, `no`, or per schema " +
  '{<schema>: `query-builder` | `no` | {<table id>: `query-builder` | `no`}}.';

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The body of `PUT /api/permissions/graph`; every refusal is a 400 in the validation shape naming the part. */
export function parseGraphEdit(body: unknown): GraphEdit {
  if (!isMap(body)) throw ValidationError.of('body', 'value must be a map.', body);
  if (!Number.isInteger(body.revision) || (body.revision as number) < 0)
    throw ValidationError.of('revision', 'value must be an integer.', body.revision);
  if (!isMap(body.groups)) throw ValidationError.of('groups', 'value must be a map.', body.groups);
  const impersonations =
    body.impersonations === undefined || body.impersonations === null ? undefined : parseImpersonations(body.impersonations);
  const groups: GraphEdit['groups'] = {};
  let currentFormat = true;
  for (const [gid, dbs] of Object.entries(body.groups)) {
    if (!ID.test(gid) || !isMap(dbs)) throw ValidationError.of('groups', 'value must map group ids to maps of database ids.', gid);
    groups[gid] = {};
    for (const [dbId, entry] of Object.entries(dbs)) {
      if (!ID.test(dbId) || !isMap(entry)) throw ValidationError.of('groups', ENTRY_MESSAGE, entry);
      const edit = parseEntry(entry);
      if (edit.legacy) currentFormat = false;
      groups[gid][dbId] = edit;
    }
  }
  const sandboxes = body.sandboxes === undefined || body.sandboxes === null ? undefined : parseSandboxes(body.sandboxes);
  return {
    revision: body.revision as number,
    groups,
    currentFormat,
    ...(impersonations ? { impersonations } : {}),
    ...(sandboxes ? { sandboxes } : {}),
  };
}

const IMPERSONATIONS_MESSAGE =
  'value must be a list of {group_id, db_id, attribute}, the ids positive integers, the attribute a non-blank string.';

/** `impersonations: [{group_id, db_id, attribute}]` (Metabase's; other keys, such as an `id` read back, are ignored). */
export function parseImpersonations(v: unknown): ImpersonationEdit[] {
  if (!Array.isArray(v)) throw ValidationError.of('impersonations', IMPERSONATIONS_MESSAGE, v);
  return v.map((p) => {
    const ok =
      isMap(p) &&
      Number.isInteger(p.group_id) &&
      (p.group_id as number) > 0 &&
      Number.isInteger(p.db_id) &&
      (p.db_id as number) > 0 &&
      typeof p.attribute === 'string' &&
      p.attribute.trim() !== '';
    if (!ok) throw ValidationError.of('impersonations', IMPERSONATIONS_MESSAGE, p);
    return { group_id: p.group_id as number, db_id: p.db_id as number, attribute: p.attribute as string };
  });
}

export function parseEntry(a: Record<string, unknown>): EntryEdit {
  const keys = Object.keys(a);
  if (keys.length && !keys.some((k) => KNOWN.includes(k))) throw ValidationError.of('groups', ENTRY_MESSAGE, a);
  const edit: EntryEdit = { sent: a };
  if ('data' in a || 'native' in a) {
    if (!DATA.includes(a.data as DataAccess) || !NATIVE.includes(a.native as NativeAccess))
      throw ValidationError.of('groups', ENTRY_MESSAGE, a);
    // Native SQL only ever came together with data access.
    edit.legacy = { data: a.data as DataAccess, native: a.data === 'no' ? 'none' : (a.native as NativeAccess) };
  }
  if (a['view-data'] !== undefined) {
    const view = a['view-data'];
    if (view === 'impersonated') {
      // Stored as unrestricted: the impersonation policy is what restricts it (the warehouse's role, row security).
      edit.viewData = 'unrestricted';
      edit.impersonated = true;
    } else if (view === 'legacy-no-self-service') {
      edit.viewData = 'unrestricted';
      edit.noSelfService = true;
    } else {
      // A sandboxed table is stored as unrestricted: its sandbox policy is what restricts it.
      const parsed = perSchema(view, ['unrestricted', 'blocked'], ['unrestricted', 'blocked', 'sandboxed'], VIEW_MESSAGE);
      edit.viewData = mapValues(parsed, (v) => (v === 'sandboxed' ? 'unrestricted' : v)) as PerSchema<ViewDataAccess>;
    }
  }
  if (a['create-queries'] !== undefined) {
    edit.createQueries = perSchema(
      a['create-queries'],
      ['query-builder-and-native', 'query-builder', 'no'],
      ['query-builder', 'no'],
      CREATE_MESSAGE,
    );
  }
  if (a.download !== undefined) {
    const d = a.download;
    if (!isMap(d) || Object.keys(d).length !== 1 || d.schemas === undefined) throw ValidationError.of('groups', DOWNLOAD_MESSAGE, d);
    edit.download = perSchema(d.schemas, DOWNLOAD, DOWNLOAD, DOWNLOAD_MESSAGE);
  }
  // Only administrators edit the data model and see connection details here: what a group is given is refused
  // (data-permissions-apply.ts), except the Administrators' own as read.
  if (a['data-model'] !== undefined) {
    if (!isMap(a['data-model']) || Object.keys(a['data-model']).length !== 1)
      throw ValidationError.of('groups', DATA_MODEL_MESSAGE, a['data-model']);
    perSchema((a['data-model'] as Record<string, unknown>).schemas, ['all', 'none'], ['all', 'none'], DATA_MODEL_MESSAGE);
    if (!isNone(a['data-model'], 'none')) edit.grantsAdminOnly = 'data-model';
  }
  if (a.details !== undefined) {
    if (a.details !== 'yes' && a.details !== 'no')
      throw ValidationError.of('groups', "each database's details must be `yes` or `no`.", a.details);
    if (a.details === 'yes') edit.grantsAdminOnly = 'details';
  }
  if (a.upload !== undefined) {
    if (a.upload !== 'yes' && a.upload !== 'no')
      throw ValidationError.of('groups', "each database's upload must be `yes` or `no`.", a.upload);
    edit.upload = a.upload;
  }
  return edit;
}

/** `{schemas: "none"}`, or a per-schema map of nothing but that. */
function isNone(v: unknown, none: string): boolean {
  if (!isMap(v) || Object.keys(v).length !== 1) return false;
  const s = v.schemas;
  return s === none || (isMap(s) && Object.values(s).every((x) => x === none || (isMap(x) && Object.values(x).every((y) => y === none))));
}

/** A level database-wide (one of `wide`), or `{<schema>: level | {<table id>: level}}` with levels of `perTable`. */
function perSchema<T extends string>(v: unknown, wide: readonly string[], perTable: readonly string[], message: string): PerSchema<T> {
  if (typeof v === 'string') {
    if (!wide.includes(v)) throw ValidationError.of('groups', message, v);
    return v as T;
  }
  if (!isMap(v)) throw ValidationError.of('groups', message, v);
  for (const inSchema of Object.values(v)) {
    if (typeof inSchema === 'string' && perTable.includes(inSchema)) continue;
    if (!isMap(inSchema)) throw ValidationError.of('groups', message, v);
    for (const [tableId, level] of Object.entries(inSchema)) {
      if (!ID.test(tableId) || typeof level !== 'string' || !perTable.includes(level)) throw ValidationError.of('groups', message, v);
    }
  }
  return v as PerSchema<T>;
}

function mapValues(v: PerSchema<string>, fn: (level: string) => string): PerSchema<string> {
  if (typeof v === 'string') return fn(v);
  return Object.fromEntries(
    Object.entries(v).map(([schema, x]) => [
      schema,
      typeof x === 'string' ? fn(x) : Object.fromEntries(Object.entries(x).map(([id, y]) => [id, fn(y)])),
    ]),
  );
}

const SANDBOXES_MESSAGE =
  'value must be a list of {group_id, table_id, card_id, attribute_remappings}, the ids positive integers ' +
  '(card_id may be null), attribute_remappings a map.';

const positive = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;

/** `sandboxes: [{group_id, table_id, card_id?, attribute_remappings?}]` (other keys, such as an `id` read back, are ignored). */
export function parseSandboxes(v: unknown): SandboxEdit[] {
  if (!Array.isArray(v)) throw ValidationError.of('sandboxes', SANDBOXES_MESSAGE, v);
  return v.map((p) => {
    const ok =
      isMap(p) &&
      positive(p.group_id) &&
      positive(p.table_id) &&
      (p.card_id === undefined || p.card_id === null || positive(p.card_id)) &&
      (p.attribute_remappings === undefined || p.attribute_remappings === null || isMap(p.attribute_remappings));
    if (!ok) throw ValidationError.of('sandboxes', SANDBOXES_MESSAGE, p);
    return {
      group_id: p.group_id as number,
      table_id: p.table_id as number,
      card_id: (p.card_id as number | null | undefined) ?? null,
      attribute_remappings: (p.attribute_remappings as Record<string, unknown> | null | undefined) ?? {},
    };
  });
}
