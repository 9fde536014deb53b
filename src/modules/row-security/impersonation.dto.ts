import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { Id } from '../../common/validation/validators';

const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value));

/** GET /api/ee/advanced-permissions/impersonation: with both keys, the one policy of that group and database (or null). */
export class ListImpersonationsQuery {
  @IsOptional()
  @Id()
  @IntString()
  group_id?: number;

  @IsOptional()
  @Id()
  @IntString()
  db_id?: number;
}
