import type { CollectionItemSource } from './collection-items.registry';

const CHUNK = 5000;

/**
 * Which item models each collection holds, merged over every registered source: a bounded number of queries per
 * source (ids go in chunks so that no statement exceeds the app databases' parameter limits).
 */
export async function modelsIn(sources: readonly CollectionItemSource[], ids: number[], archived = false): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (ids.length === 0) return out;
  for (const source of sources) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = await source.modelsIn(ids.slice(i, i + CHUNK), archived);
      for (const [id, models] of part) {
        let set = out.get(id);
        if (!set) out.set(id, (set = new Set()));
        for (const m of models) set.add(m);
      }
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
