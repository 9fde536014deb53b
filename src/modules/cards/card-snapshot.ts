import type { Card } from './card.entity';
import { parseJson } from './card-view';

/** The card as a revision keeps it: every column the user edits, JSON parsed. */
export function snapshotOf(c: Card): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    display: c.display,
    type: c.type,
    dataset_query: parseJson(c.dataset_query, {}),
    visualization_settings: parseJson(c.visualization_settings, {}),
    parameters: parseJson(c.parameters, []),
    parameter_mappings: parseJson(c.parameter_mappings, []),
    result_metadata: parseJson(c.result_metadata, null),
    collection_id: c.collection_id,
    collection_position: c.collection_position,
    collection_preview: c.collection_preview,
    cache_ttl: c.cache_ttl,
    archived: c.archived,
    enable_embedding: c.enable_embedding,
    embedding_params: parseJson(c.embedding_params, null),
    database_id: c.database_id,
    table_id: c.table_id,
    query_type: c.query_type,
    creator_id: c.creator_id,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const TYPE_NAMES: Record<string, string> = { question: 'a saved question', model: 'a model', metric: 'a metric' };

/** One phrase per changed key, in Metabase's words. */
function phrases(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  const changed = (k: string) => k in after && !same(before[k], after[k]);
  if (changed('name')) out.push(`renamed this from "${String(before.name)}" to "${String(after.name)}"`);
  if (changed('description')) out.push(!before.description ? 'added a description' : !after.description ? 'removed the description' : 'changed the description');
  if (changed('archived')) out.push(after.archived ? 'archived this' : 'unarchived this');
  if (changed('collection_id')) out.push(after.collection_id === null ? 'moved this to Our analytics' : 'moved this to another collection');
  if (changed('collection_position')) out.push(after.collection_position === null ? 'unpinned this' : 'pinned this');
  if (changed('type')) out.push(`turned this into ${TYPE_NAMES[String(after.type)] ?? String(after.type)}`);
  if (changed('display')) out.push(`changed the display from ${String(before.display)} to ${String(after.display)}`);
  if (changed('dataset_query')) out.push('edited the question');
  if (changed('visualization_settings')) out.push('changed the visualization settings');
  if (changed('parameters')) out.push('changed the parameters');
  if (changed('cache_ttl')) out.push('changed the cache ttl');
  if (changed('enable_embedding')) out.push(after.enable_embedding ? 'enabled embedding' : 'disabled embedding');
  if (changed('embedding_params')) out.push('changed the embedding parameters');
  return out;
}

/** `renamed this from "A" to "B", archived this and changed the visualization settings.`; null when nothing changed. */
export function describeCardChange(before: Record<string, unknown> | null, after: Record<string, unknown>): string | null {
  if (!before) return null;
  const parts = phrases(before, after);
  if (parts.length === 0) return null;
  const sentence = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${sentence}.`;
}
