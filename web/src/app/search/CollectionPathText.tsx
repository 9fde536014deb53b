import { Text } from '@mantine/core';
import { useCollection } from '../api/collection';
import type { SearchResult } from '../api/search';

/**
 * Where a result lives: "Our analytics / Sales / Regional". The search answers the collection; its ancestors come
 * from `GET /api/collection/:id`, asked once per collection however many results share it (the query cache).
 */
export function CollectionPathText({ result }: { result: SearchResult }) {
  const id = result.model === 'collection' ? parentOf(result.location) : result.collection.id;
  const collection = useCollection(id);
  if (result.model === 'table' || result.model === 'database') {
    const where = result.model === 'table' ? [result.database_name, result.table_schema].filter(Boolean).join(' / ') : 'Databases';
    return (
      <Text size="sm" c="dimmed">
        in {where}
      </Text>
    );
  }
  const names =
    id === null
      ? ['Our analytics']
      : collection.data
        ? [...collection.data.effective_ancestors.map((a) => a.name), collection.data.name]
        : null;
  return (
    <Text size="sm" c="dimmed">
      in {names ? names.join(' / ') : (result.collection.name ?? '…')}
    </Text>
  );
}

/** The parent of a collection from its location (`/1/2/` is in 2); the top level is in Our analytics. */
function parentOf(location: string | null): number | null {
  const ids = (location ?? '/').split('/').filter(Boolean);
  return ids.length ? Number(ids[ids.length - 1]) : null;
}
