import type { EventBus } from '../../common/events/event-bus';
import { CollectionModelsQuery } from './collection-item-source';

/**
 * Which item models each collection holds, merged over every item source: one question per source with every id,
 * so that a source can choose how to look them up (a scan of its own table beats a list of tens of thousands of ids).
 */
export async function modelsIn(bus: EventBus, ids: number[], archived = false): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (ids.length === 0) return out;
  for (const answer of await bus.ask(new CollectionModelsQuery(ids, archived))) {
    for (const [id, models] of answer) {
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
