import { IsDefined, IsOptional } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, PositiveInt } from '../../common/validation/validators';

/** POST /api/dataset/native: `{database, query, pretty?}` where `query` is the MBQL inner query or a whole dataset query. */
export class NativeFormDto {
  @PositiveInt()
  database: number;

  @IsDefined({ message: MSG.map })
  query: unknown;

  @IsOptional()
  @Bool()
  pretty?: boolean;
}
