import { commonName, iso } from '../../common/views/wire-values';
import { changeParts, diffSnapshots } from './revision-describe';
import type { Revision } from '../../schema/revision.entity';
import type { RevisionAuthor } from './revisions.repository';

export interface RevisionView {
  id: number;
  description: string | null;
  timestamp: string;
  is_creation: boolean;
  is_reversion: boolean;
  most_recent: boolean;
  message: string | null;
  user: { id: number; first_name: string | null; last_name: string | null; common_name: string } | null;
  diff: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;
  has_multiple_changes: boolean;
}

const parse = (r: Revision) => JSON.parse(r.object) as Record<string, unknown>;

/**
 * Metabase's `revisions+details`: `rows` newest first; each revision's diff is against the next older one (none for
 * the oldest kept or a creation), its description the stored sentence or, when nothing it names changed, `created
 * this.` / `reverted to an earlier version.`.
 */
export function toRevisionViews(rows: Revision[], authors: ReadonlyMap<number, RevisionAuthor>): RevisionView[] {
  return rows.map((r, i) => {
    const prev = r.is_creation ? undefined : rows[i + 1];
    const before = prev ? parse(prev) : null;
    const after = parse(r);
    const author = r.user_id === null ? undefined : authors.get(r.user_id);
    const fallback = r.is_creation ? 'created this.' : r.is_reversion ? 'reverted to an earlier version.' : null;
    return {
      id: r.id,
      description: r.description ?? fallback,
      timestamp: iso(r.timestamp)!,
      is_creation: r.is_creation,
      is_reversion: r.is_reversion,
      most_recent: r.most_recent,
      message: r.message,
      user: author ? { id: author.id, first_name: author.first_name, last_name: author.last_name, common_name: commonName(author) } : null,
      diff: before ? diffSnapshots(before, after) : null,
      has_multiple_changes: changeParts(before, after, { model: 'object' }).length > 1,
    };
  });
}
