import { IsString } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, IsMap, MaxLen, NonBlankString, Nullable, PositiveInt, PositiveIntArray } from '../../common/validation/validators';

/** POST /api/segment/ and POST /api/metric/. */
export class CreateSegmentMetricDto {
  @MaxLen(254)
  @NonBlankString()
  name: string;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @PositiveInt()
  table_id: number;

  @IsMap()
  definition: Record<string, unknown>;
}

/** PUT /api/segment/:id and /api/metric/:id (segments have no `how_is_this_calculated` and ignore it). */
export class UpdateSegmentMetricDto {
  @NonBlankString()
  revision_message: string;

  @Nullable()
  @MaxLen(254)
  @NonBlankString()
  name?: string | null;

  @Nullable()
  @IsMap()
  definition?: Record<string, unknown> | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @IsString({ message: MSG.string })
  caveats?: string | null;

  @Nullable()
  @IsString({ message: MSG.string })
  points_of_interest?: string | null;

  @Nullable()
  @Bool()
  show_in_getting_started?: boolean | null;

  @Nullable()
  @IsString({ message: MSG.string })
  how_is_this_calculated?: string | null;
}

/** The deprecated DELETE: archives, and says why (a query parameter). */
export class ArchiveSegmentMetricQuery {
  @NonBlankString()
  revision_message: string;
}

export class RevertSegmentMetricDto {
  @PositiveInt()
  revision_id: number;
}

/** PUT /api/metric/:id/important_fields. */
export class ImportantFieldsDto {
  @PositiveIntArray()
  important_field_ids: number[];
}
