import { MaxLen, NonBlankString, Nullable, PositiveInt } from '../../common/validation/validators';
import { iso } from '../../common/views/wire-values';
import { ApiKey } from '../../schema/api-key.entity';

/** The column's width (the key's user takes the name too): longer must be a 400, not a database error. */
export const NAME_MAX = 254;

export class CreateApiKeyDto {
  @MaxLen(NAME_MAX)
  @NonBlankString()
  name: string;

  @PositiveInt()
  group_id: number;
}

export class UpdateApiKeyDto {
  @Nullable()
  @MaxLen(NAME_MAX)
  @NonBlankString()
  name?: string | null;

  @Nullable()
  @PositiveInt()
  group_id?: number | null;
}

export interface ApiKeyView {
  id: number;
  name: string;
  group: { id: number; name: string };
  creator_id: number;
  masked_key: string;
  created_at: string;
  updated_at: string;
  updated_by: { id: number; common_name: string } | null;
  /** Only in the answers of create and regenerate: the key is never stored, so it cannot be shown again. */
  unmasked_key?: string;
}

export function maskKey(prefix: string): string {
  return `${prefix}****`;
}

export function toApiKeyView(
  key: ApiKey,
  group: { id: number; name: string },
  updatedBy: { id: number; common_name: string } | null,
  unmaskedKey?: string,
): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    group,
    creator_id: key.creator_id,
    masked_key: maskKey(key.key_prefix),
    created_at: iso(key.created_at)!,
    updated_at: iso(key.updated_at)!,
    updated_by: updatedBy,
    ...(unmaskedKey === undefined ? {} : { unmasked_key: unmaskedKey }),
  };
}
