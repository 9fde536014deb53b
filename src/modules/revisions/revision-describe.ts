/**
 * Metabase's revision sentences (its `revision.diff`), for any owner of revisions: the first change names the object
 * (`this Card`), later ones say `it`; the parts are joined as `a, b and c.`. Pure, so owners call it from their
 * `RevisionTarget.describe`.
 */

type Snapshot = Record<string, unknown>;

export interface DescribeOptions {
  /** How the object is named in sentences: `Card`, `Dashboard`, `Metric`, `Segment`. */
  model: string;
  /** Names of the collections a `collection_id` change moved between (unknown ones are described without a name). */
  collectionNames?: ReadonlyMap<number, string>;
  /** Sentences for keys of the owner's own; answer undefined to fall back to the generic ones, null for none. */
  labels?: Record<string, (before: unknown, after: unknown, it: string) => string | null>;
}

const ROOT_NAME = 'Our analytics';

const isMap = (v: unknown): v is Snapshot => typeof v === 'object' && v !== null && !Array.isArray(v);

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => equal(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal((a as Snapshot)[k], (b as Snapshot)[k]))
  );
}

/**
 * What changed between two snapshots, as Metabase's `clojure.data/diff` answers it for maps: `before` holds the old
 * values of the keys that differ (nested maps only their differing keys), `after` the new ones; a side with nothing
 * of its own is null. Absent and null count as the same.
 */
export function diffSnapshots(before: Snapshot, after: Snapshot): { before: Snapshot | null; after: Snapshot | null } {
  const b: Snapshot = {};
  const a: Snapshot = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const v1 = before[k] ?? null;
    const v2 = after[k] ?? null;
    if (equal(v1, v2)) continue;
    if (isMap(v1) && isMap(v2)) {
      const inner = diffSnapshots(v1, v2);
      if (inner.before) b[k] = inner.before;
      if (inner.after) a[k] = inner.after;
      continue;
    }
    if (v1 !== null) b[k] = v1;
    if (v2 !== null) a[k] = v2;
  }
  return { before: Object.keys(b).length ? b : null, after: Object.keys(a).length ? a : null };
}

/** The keys whose change is described; others (ids derived from the query, timestamps) are not. */
function sentence(k: string, v1: unknown, v2: unknown, it: string, o: DescribeOptions): string | null {
  const coll = (id: unknown) => (id === null || id === undefined ? ROOT_NAME : (o.collectionNames?.get(Number(id)) ?? null));
  switch (k) {
    case 'name':
      return `renamed ${it} from "${String(v1 ?? '')}" to "${String(v2 ?? '')}"`;
    case 'description':
      return v1 === null || v1 === undefined ? 'added a description' : 'changed the description';
    case 'archived':
      return v2 ? `archived ${it}` : `unarchived ${it}`;
    case 'public_uuid':
      return v2 ? `made ${it} public` : `made ${it} private`;
    case 'enable_embedding':
      return v2 ? 'enabled embedding' : 'disabled embedding';
    case 'parameters':
      return 'changed the filters';
    case 'embedding_params':
      return 'changed the embedding parameters';
    case 'collection_position':
      return 'changed pin position';
    case 'collection_id': {
      const to = coll(v2);
      if (v1 === null || v1 === undefined) return to ? `moved ${it} to ${to}` : `moved ${it} to another collection`;
      const from = coll(v1);
      return from && to ? `moved ${it} from ${from} to ${to}` : to ? `moved ${it} to ${to}` : `moved ${it} to another collection`;
    }
    case 'visualization_settings':
      return 'changed the visualization settings';
    case 'parameter_mappings':
      return 'changed the filter mapping';
    case 'collection_preview':
      return v2 ? 'enabled collection preview' : 'disabled collection preview';
    case 'dataset_query':
      return 'modified the query';
    case 'type':
      return v1 === 'question' && v2 === 'model' ? 'turned this to a model' : `type changed from ${String(v1)} to ${String(v2)}`;
    case 'display':
      return v1 ? `changed the display from ${String(v1)} to ${String(v2)}` : `changed the display to ${String(v2)}`;
    case 'result_metadata':
      return 'edited the metadata';
    case 'width':
      return `changed the width setting from ${String(v1)} to ${String(v2)}`;
    case 'cache_ttl':
      return `changed the cache ttl from "${String(v1 ?? '')}" to "${String(v2 ?? '')}"`;
    default:
      return null;
  }
}

/** The change sentences between two snapshots, in key order; empty when nothing described changed. */
export function changeParts(before: Snapshot | null, after: Snapshot, o: DescribeOptions): string[] {
  if (!before) return [];
  const parts: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const v1 = before[k] ?? null;
    const v2 = after[k] ?? null;
    if (equal(v1, v2)) continue;
    const it = parts.length === 0 ? `this ${o.model}` : 'it';
    const own = o.labels?.[k];
    const s = own ? own(v1, v2, it) : sentence(k, v1, v2, it, o);
    if (s) parts.push(s);
  }
  return parts;
}

/** `a.`, `a and b.`, `a, b and c.` (Metabase's build-sentence); null for no parts. */
export function buildSentence(parts: string[]): string | null {
  if (parts.length === 0) return null;
  if (parts.length === 1) return `${parts[0]}.`;
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}.`;
}

/** One sentence of everything that changed, e.g. `renamed this Card from "A" to "B" and archived it.`; null when nothing did. */
export function describeChanges(before: Snapshot | null, after: Snapshot, o: DescribeOptions): string | null {
  return buildSentence(changeParts(before, after, o));
}
