import { describeChanges, type DescribeContext } from '../revisions';
import type { Card } from '../../schema/card.entity';
import { parseJson } from '../../common/database/stored-json';

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

/**
 * `renamed this Card from "A" to "B", changed the visualization settings and archived it.` (the revisions module's
 * Metabase sentences); null when nothing described changed.
 */
export function describeCardChange(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  context?: DescribeContext,
): string | null {
  return describeChanges(before, after, { model: 'Card', collectionNames: context?.collectionNames });
}
