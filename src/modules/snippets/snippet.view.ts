import { iso } from '../../common/views/wire-values';
import { NativeQuerySnippet } from '../../schema/snippet.entity';

export function toSnippetView(s: NativeQuerySnippet, creator?: { id: number; email: string; common_name: string } | null) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    content: s.content,
    collection_id: s.collection_id,
    creator_id: s.creator_id,
    creator: creator ?? null,
    archived: s.archived,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}
