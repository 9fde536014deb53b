/**
 * What a caller sees of the collection tree, as pure functions over rows already loaded: the effective location
 * (the ancestors they may read), nodes hung under their nearest visible ancestor, and the `here`/`below` sets.
 */
import { ancestorIds } from './location';

export interface Placed {
  id: number;
  location: string;
}

/** ancestorIds, remembered per location for one listing: siblings share theirs. */
function ancestorsMemo(): (location: string) => number[] {
  const memo = new Map<string, number[]>();
  return (location) => {
    let ids = memo.get(location);
    if (!ids) memo.set(location, (ids = ancestorIds(location)));
    return ids;
  };
}

/** The location with the ancestors that are not `visible` left out (`/` when none is). */
export function effectiveLocation(location: string, visible: (id: number) => boolean): string {
  const ids = ancestorIds(location).filter(visible);
  return ids.length ? `/${ids.join('/')}/` : '/';
}

/** The nearest visible ancestor's id; null when none is (the node then shows at the top). */
export function effectiveParentId(
  location: string,
  visible: (id: number) => boolean,
  parse: (location: string) => number[] = ancestorIds,
): number | null {
  const ids = parse(location);
  for (let i = ids.length - 1; i >= 0; i--) if (visible(ids[i])) return ids[i];
  return null;
}

export interface TreeNode<T> {
  node: T;
  children: TreeNode<T>[];
}

/**
 * Hangs every node under its nearest ancestor among `nodes` (top level when it has none there), each level in the
 * order of `sortKey` (computed once per node), then id. Linear in the number of nodes and their depth, plus the sort.
 */
export function buildTree<T extends Placed>(nodes: T[], sortKey: (n: T) => string): TreeNode<T>[] {
  const byId = new Map<number, TreeNode<T> & { key: string }>(nodes.map((n) => [n.id, { node: n, children: [], key: sortKey(n) }]));
  const top: Array<TreeNode<T> & { key: string }> = [];
  const has = (id: number) => byId.has(id);
  const parse = ancestorsMemo();
  for (const t of byId.values()) {
    const parent = effectiveParentId(t.node.location, has, parse);
    (parent === null ? top : (byId.get(parent)!.children as Array<TreeNode<T> & { key: string }>)).push(t);
  }
  const compare = (a: TreeNode<T> & { key: string }, b: TreeNode<T> & { key: string }) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.node.id - b.node.id;
  const sortAll = (level: Array<TreeNode<T> & { key: string }>) => {
    level.sort(compare);
    for (const t of level) if (t.children.length) sortAll(t.children as Array<TreeNode<T> & { key: string }>);
  };
  sortAll(top);
  return top;
}

/** The listing order as one string per collection: official ones first, then by name without case. */
export function officialThenNameKey(c: { name: string; authority_level: string | null }): string {
  return `${c.authority_level === 'official' ? 0 : 1}${c.name.toLowerCase()}`;
}

/** effectiveLocation, remembered per location: siblings share theirs. */
export function effectiveLocations(visible: (id: number) => boolean): (location: string) => string {
  const memo = new Map<string, string>();
  return (location) => {
    let e = memo.get(location);
    if (e === undefined) memo.set(location, (e = effectiveLocation(location, visible)));
    return e;
  };
}

/** `here` and `below` of the nodes of a listing, as sorted lists (shared between nodes that have the same ones). */
export interface ModelSets {
  here(id: number): string[];
  below(id: number): string[];
}

/**
 * `here` is what each node holds itself; `below` the union of what its descendants among `nodes` hold (found by
 * location, so hidden levels in between do not break the chain). Sets are bit masks while gathering: a tree of tens
 * of thousands of nodes costs integer ORs, and one sorted list per distinct mask.
 */
export function modelSets(nodes: Placed[], here: Map<number, Iterable<string>>): ModelSets {
  const bits = new Map<string, number>();
  const names: string[] = [];
  const maskOf = (models: Iterable<string>) => {
    let m = 0;
    for (const name of models) {
      let b = bits.get(name);
      if (b === undefined) {
        bits.set(name, (b = names.length));
        names.push(name);
      }
      m |= 1 << b;
    }
    return m;
  };
  const hereMask = new Map<number, number>();
  for (const [id, models] of here) hereMask.set(id, maskOf(models));
  const belowMask = new Map<number, number>(nodes.map((n) => [n.id, 0]));
  const parse = ancestorsMemo();
  for (const n of nodes) {
    const m = hereMask.get(n.id);
    if (!m) continue;
    for (const a of parse(n.location)) {
      const b = belowMask.get(a);
      if (b !== undefined) belowMask.set(a, b | m);
    }
  }
  const lists = new Map<number, string[]>([[0, []]]);
  const list = (mask: number) => {
    let l = lists.get(mask);
    if (!l) lists.set(mask, (l = names.filter((_, i) => mask & (1 << i)).sort()));
    return l;
  };
  return { here: (id) => list(hereMask.get(id) ?? 0), below: (id) => list(belowMask.get(id) ?? 0) };
}

/** Sorts by a key computed once per element, then id. */
export function sortByKey<T extends { id: number }>(xs: T[], key: (x: T) => string): T[] {
  const keyed = xs.map((x) => ({ x, k: key(x) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.x.id - b.x.id));
  return keyed.map((e) => e.x);
}
