/**
 * What a caller sees of the collection tree, as pure functions over rows already loaded: the effective location
 * (the ancestors they may read), nodes hung under their nearest visible ancestor, and the `here`/`below` sets.
 */
import { ancestorIds } from './location';

export interface Placed {
  id: number;
  location: string;
}

/** The location with the ancestors that are not `visible` left out (`/` when none is). */
export function effectiveLocation(location: string, visible: (id: number) => boolean): string {
  const ids = ancestorIds(location).filter(visible);
  return ids.length ? `/${ids.join('/')}/` : '/';
}

/** The nearest visible ancestor's id; null when none is (the node then shows at the top). */
export function effectiveParentId(location: string, visible: (id: number) => boolean): number | null {
  const ids = ancestorIds(location);
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
  for (const t of byId.values()) {
    const parent = effectiveParentId(t.node.location, has);
    (parent === null ? top : (byId.get(parent)!.children as Array<TreeNode<T> & { key: string }>)).push(t);
  }
  const compare = (a: TreeNode<T> & { key: string }, b: TreeNode<T> & { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.node.id - b.node.id);
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

/**
 * `below` of every node: the union of what its descendants hold (their own `here`), for the nodes in `nodes`
 * (descendants found by location, so hidden levels in between do not break the chain).
 */
export function belowSets(nodes: Placed[], here: (id: number) => Iterable<string>): Map<number, Set<string>> {
  const below = new Map<number, Set<string>>(nodes.map((n) => [n.id, new Set<string>()]));
  for (const n of nodes) {
    const models = [...here(n.id)];
    if (models.length === 0) continue;
    for (const a of ancestorIds(n.location)) {
      const set = below.get(a);
      if (set) for (const m of models) set.add(m);
    }
  }
  return below;
}

/** Sorts by a key computed once per element, then id. */
export function sortByKey<T extends { id: number }>(xs: T[], key: (x: T) => string): T[] {
  const keyed = xs.map((x) => ({ x, k: key(x) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.x.id - b.x.id));
  return keyed.map((e) => e.x);
}
