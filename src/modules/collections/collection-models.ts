import type { CollectionItemSource } from './collection-items.registry';

/**
 * Which item models each collection holds, merged over every registered source: one call per source with every id,
 * so that a source can choose how to look them up (a scan of its own table beats a list of tens of thousands of ids).
 */
export async function modelsIn(sources: readonly CollectionItemSource[], ids: number[], archived = false): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (ids.length === 0) return out;
  for (const source of sources) {
    for (const [id, models] of await source.modelsIn(ids, archived)) {
      let set = out.get(id);
      if (!set) out.set(id, (set = new Set()));
      for (const m of models) set.add(m);
    }
  }
  return out;
}

/** Models that may live in collections of a namespace: the default one holds content, `snippet` holds snippets. */
export function modelsOfNamespace(namespace: string | null): string[] {
  if (namespace === null) return ['card', 'collection', 'dashboard', 'dataset', 'metric', 'pulse', 'timeline'];
  if (namespace === 'snippet') return ['collection', 'snippet'];
  return ['collection'];
}
