import { Transform } from 'class-transformer';
import { IsIn, IsString } from 'class-validator';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { Bool, BoolString, NonBlankString, Nullable, OneOf, PositiveIntArray } from '../../common/validation/validators';
import { ENTITY_TYPES, keywordName } from '../fields';
import { FieldOrder, TableVisibility } from '../../schema/table.entity';

export const TABLE_VISIBILITIES = ['cruft', 'hidden', 'technical'] as const;
export const FIELD_ORDERS: readonly FieldOrder[] = ['alphabetical', 'custom', 'database', 'smart'];
export const ENTITY_TYPE_MSG = 'value must be a valid entity type (keyword or string).';

/** The keys both PUT /api/table/:id and PUT /api/table/ accept. */
export class TableEditsDto {
  @Nullable()
  @NonBlankString()
  display_name?: string | null;

  @Nullable()
  @Transform(({ value }) => keywordName(value))
  @IsIn([...ENTITY_TYPES], { message: ENTITY_TYPE_MSG })
  entity_type?: string | null;

  @Nullable()
  @OneOf(TABLE_VISIBILITIES)
  visibility_type?: Exclude<TableVisibility, null> | null;

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
}

export class UpdateTableDto extends TableEditsDto {
  @Nullable()
  @OneOf(FIELD_ORDERS)
  field_order?: FieldOrder | null;
}

export class BulkUpdateTablesDto extends TableEditsDto {
  @PositiveIntArray(true)
  ids: number[];
}

export class GetTableQuery {
  @Nullable()
  @BoolString()
  include_editable_data_model?: boolean;
}

export class QueryMetadataQuery {
  @Nullable()
  @BoolString()
  include_sensitive_fields?: boolean;

  @Nullable()
  @BoolString()
  include_hidden_fields?: boolean;

  @Nullable()
  @BoolString()
  include_editable_data_model?: boolean;
}

/**
 * The body of PUT /api/table/:id/fields/order: Metabase clients send the bare array of field ids; `{field_order: [...]}`
 * is accepted too. Parsed by hand because a bare array is not a DTO.
 */
export function parseFieldOrder(body: unknown): number[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? (body as { field_order?: unknown }).field_order : undefined;
  if (!Array.isArray(list)) throw ValidationError.of('field_order', MSG.array, list);
  if (!list.every((n) => Number.isInteger(n) && n > 0)) throw ValidationError.of('field_order', MSG.positiveInt, list);
  return list as number[];
}
