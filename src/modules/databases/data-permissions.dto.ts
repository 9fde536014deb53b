import { BoolString, Nullable } from '../../common/validation/validators';

/** `PUT /api/permissions/graph?force=true&skip-graph=true` (Metabase's query parameters). */
export class GraphUpdateQuery {
  /** Save even when the revision sent is not the current one. */
  @Nullable()
  @BoolString()
  force?: boolean;

  /** Answer only the new revision. */
  @Nullable()
  @BoolString()
  'skip-graph'?: boolean;
}
