import { Transform } from 'class-transformer';
import { OneOf, PositiveInt, Id } from '../../common/validation/validators';

/** The kinds of objects with revisions, as the API names them. */
export const REVISION_ENTITIES = ['card', 'dashboard', 'metric', 'segment'] as const;
export type RevisionEntity = (typeof REVISION_ENTITIES)[number];

/** Query-string integers; longer than 9 digits stays a string and fails, so no value can overflow a 32-bit column. */
const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class ListRevisionsQuery {
  @OneOf(REVISION_ENTITIES)
  entity: RevisionEntity;

  @IntString()
  @PositiveInt()
  id: number;
}

export class RevertRevisionDto {
  @OneOf(REVISION_ENTITIES)
  entity: RevisionEntity;

  @Id()
  id: number;

  @Id()
  revision_id: number;
}
