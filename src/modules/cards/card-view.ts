import type { CardRow, CollectionName, LastEdit } from '../../schema/card.rows';
import { parseJson } from '../../common/database/stored-json';
import { isoTime } from '../../common/database/sql-time';
import { commonNameOf } from '../../common/views/wire-values';

/** What the single-card view adds to the listing's. */
export interface CardExtras {
  can_write: boolean;
  ancestors?: CollectionName[];
  lastEdit?: LastEdit | null;
  stats?: { average: number | null; last: Date | string | null };
}

export function collectionView(row: CardRow, ancestors?: CollectionName[]) {
  if (row.collection_id === null || row.collection_id === undefined) return null;
  return {
    id: row.collection_id,
    name: row.coll_name,
    description: row.coll_description ?? null,
    slug: row.coll_slug ?? null,
    entity_id: row.coll_entity_id ?? null,
    location: row.coll_location ?? '/',
    namespace: row.coll_namespace ?? null,
    personal_owner_id: row.coll_personal_owner_id,
    authority_level: row.coll_authority_level ?? null,
    archived: row.coll_archived ?? false,
    is_personal: row.coll_personal_owner_id !== null,
    ...(ancestors
      ? {
          effective_ancestors: [
            {
              'metabase.models.collection.root/is-root?': true,
              id: 'root',
              name: 'Our analytics',
              authority_level: null,
              is_personal: false,
            },
            ...ancestors.map((a) => ({
              id: a.id,
              name: a.name,
              slug: a.slug,
              entity_id: a.entity_id,
              location: a.location,
              authority_level: a.authority_level,
              personal_owner_id: a.personal_owner_id,
              is_personal: a.personal_owner_id !== null,
            })),
          ],
        }
      : {}),
  };
}

/** The wire shape of a card (Metabase's GET /api/card/:id), from its row and what was hydrated. */
export function toCardView(row: CardRow, extras: CardExtras) {
  const type = (row.type ?? 'question') as 'question' | 'model' | 'metric';
  const creator = row.u_email
    ? {
        id: row.creator_id,
        email: row.u_email,
        first_name: row.u_first_name,
        last_name: row.u_last_name,
        common_name: commonNameOf({ email: row.u_email, first_name: row.u_first_name, last_name: row.u_last_name }),
        is_superuser: row.u_is_superuser ?? false,
        is_qbnewb: row.u_is_qbnewb ?? false,
        date_joined: isoTime(row.u_date_joined),
        last_login: isoTime(row.u_last_login),
      }
    : null;
  const view: Record<string, unknown> = {
    id: row.id,
    name: row.name,
    description: row.description,
    display: row.display,
    type,
    dataset: type === 'model',
    dataset_query: parseJson(row.dataset_query, {}),
    visualization_settings: parseJson(row.visualization_settings, {}),
    parameters: parseJson(row.parameters, []),
    parameter_mappings: parseJson(row.parameter_mappings, []),
    result_metadata: parseJson(row.result_metadata, null),
    query_type: row.query_type,
    database_id: row.database_id,
    table_id: row.table_id,
    source_card_id: row.source_card_id,
    collection_id: row.collection_id,
    collection_position: row.collection_position,
    collection_preview: row.collection_preview,
    cache_ttl: row.cache_ttl,
    archived: row.archived,
    enable_embedding: row.enable_embedding,
    embedding_params: parseJson(row.embedding_params, null),
    public_uuid: row.public_uuid,
    made_public_by_id: row.made_public_by_id,
    creator_id: row.creator_id,
    creator,
    entity_id: row.entity_id,
    view_count: row.view_count,
    last_used_at: isoTime(row.last_used_at),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    collection: collectionView(row, extras.ancestors),
    can_write: extras.can_write,
    dashboard_id: row.dashboard_id ?? null,
    dashboard_count: 0,
    moderation_reviews: [],
    // Metabase's columns this server does not keep, with the values Metabase has for them when unset.
    archived_directly: row.archived_directly,
    based_on_upload: null,
    metabase_version: null,
    initially_published_at: null,
    cache_invalidated_at: null,
    embedding_type: null,
    parameter_usage_count: 0,
  };
  if (extras.lastEdit !== undefined) {
    const e = extras.lastEdit;
    view['last-edit-info'] = e
      ? { id: e.id, email: e.email, first_name: e.first_name, last_name: e.last_name, timestamp: isoTime(e.timestamp) }
      : null;
  }
  if (extras.stats) {
    view.average_query_time = extras.stats.average;
    view.last_query_start = isoTime(extras.stats.last);
  }
  return view;
}

export type CardView = ReturnType<typeof toCardView>;
