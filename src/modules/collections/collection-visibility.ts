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
 * Hangs every node under its nearest ancestor among `nodes` (top level when it has none there), children in the
 * order `compare` gives. Linear in the number of nodes and their depth.
 */
export function buildTree<T extends Placed>(nodes: T[], compare: (a: T, b: T) => number): TreeNode<T>[] {
  const byId = new Map<number, TreeNode<T>>(nodes.map((n) => [n.id, { node: n, children: [] }]));
  const top: TreeNode<T>[] = [];
  for (const t of byId.values()) {
    const parent = effectiveParentId(t.node.location, (id) => byId.has(id));
    (parent === null ? top : byId.get(parent)!.children).push(t);
  }
  const sortAll = (level: TreeNode<T>[]) => {
    level.sort((a, b) => compare(a.node, b.node));
    for (const t of level) if (t.children.length) sortAll(t.children);
  };
  sortAll(top);
  return top;
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

/** Listing order: official collections first, then by name (case-insensitive), then id. */
export function byOfficialThenName(a: { name: string; authority_level: string | null; id: number }, b: { name: string; authority_level: string | null; id: number }): number {
  const oa = a.authority_level === 'official' ? 0 : 1;
  const ob = b.authority_level === 'official' ? 0 : 1;
  if (oa !== ob) return oa - ob;
  const na = a.name.toLowerCase();
  const nb = b.name.toLowerCase();
  if (na !== nb) return na < nb ? -1 : 1;
  return a.id - b.id;
}
