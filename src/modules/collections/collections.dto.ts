import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, ValidateIf } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import {
  BoolString,
  IsMap,
  MaxLen,
  NonBlankString,
  NonNegativeInt,
  Nullable,
  OneOf,
  PositiveInt,
  Id,
} from '../../common/validation/validators';

export const ITEM_MODELS = ['card', 'collection', 'dashboard', 'dataset', 'metric', 'no_models', 'pulse', 'snippet', 'timeline'] as const;
export type ItemModel = (typeof ITEM_MODELS)[number];
export const PINNED_STATES = ['all', 'is_pinned', 'is_not_pinned'] as const;
export const SORT_COLUMNS = ['model', 'name', 'last_edited_by', 'last_edited_at'] as const;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const AUTHORITY_LEVELS = ['official'] as const;

/** Checked in this order: a non-blank string first, then its length. */
const Name = () => applyDecorators(NonBlankString(), MaxLen(254));

/** Query-string integers; longer than 9 digits stays a string and fails, so no value overflows a 32-bit column. */
const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

/** A JSON boolean or, as Metabase's `BooleanValue` takes it, the string `true`/`false`. */
const BoolOrString = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

export class NamespaceQuery {
  @Nullable()
  @NonBlankString()
  namespace?: string;
}

export class ListCollectionsQuery extends NamespaceQuery {
  @Nullable()
  @BoolString()
  archived?: boolean;

  @Nullable()
  @BoolString()
  'exclude-other-user-collections'?: boolean;

  @Nullable()
  @BoolString()
  'personal-only'?: boolean;
}

export class TreeQuery extends NamespaceQuery {
  @Nullable()
  @BoolString()
  'exclude-archived'?: boolean;

  @Nullable()
  @BoolString()
  'exclude-other-user-collections'?: boolean;

  @Nullable()
  @BoolString()
  shallow?: boolean;

  @Nullable()
  @IntString()
  @PositiveInt()
  'collection-id'?: number;
}

export class ItemsQueryDto extends NamespaceQuery {
  /** Repeated (`models=card&models=dataset`) or once. */
  @Nullable()
  @Transform(({ value }) => (value === undefined || value === null || Array.isArray(value) ? value : [value]))
  @IsIn([...ITEM_MODELS], { each: true, message: MSG.oneOf(ITEM_MODELS) })
  models?: ItemModel[];

  @Nullable()
  @BoolString()
  archived?: boolean;

  @Nullable()
  @OneOf(PINNED_STATES)
  pinned_state?: (typeof PINNED_STATES)[number];

  @Nullable()
  @OneOf(SORT_COLUMNS)
  sort_column?: (typeof SORT_COLUMNS)[number];

  @Nullable()
  @OneOf(SORT_DIRECTIONS)
  sort_direction?: (typeof SORT_DIRECTIONS)[number];

  @Nullable()
  @BoolString()
  official_collections_first?: boolean;

  @Nullable()
  @IntString()
  @NonNegativeInt()
  limit?: number;

  @Nullable()
  @IntString()
  @NonNegativeInt()
  offset?: number;
}

export class CreateCollectionDto {
  @Name()
  name: string;

  @Nullable()
  @NonBlankString()
  description?: string | null;

  @Nullable()
  @Id()
  parent_id?: number | null;

  @Nullable()
  @Name()
  namespace?: string | null;

  @Nullable()
  @OneOf(AUTHORITY_LEVELS)
  authority_level?: 'official' | null;
}

/** Absent keys change nothing; `parent_id: null` moves to the Root, `description: null` clears it. */
export class UpdateCollectionDto {
  @IsOptional()
  @Name()
  name?: string;

  @Nullable()
  @NonBlankString()
  description?: string | null;

  @ValidateIf((_o, v) => v !== undefined)
  @BoolOrString()
  @IsIn([true, false], { message: MSG.boolString })
  archived?: boolean;

  @Nullable()
  @Id()
  parent_id?: number | null;

  @Nullable()
  @OneOf(AUTHORITY_LEVELS)
  authority_level?: 'official' | null;
}

export class GraphQuery extends NamespaceQuery {
  @Nullable()
  @BoolString()
  force?: boolean;

  @Nullable()
  @BoolString()
  skip_graph?: boolean;
}

/** The body of PUT /api/collection/graph; the inside of `groups` is checked by the graph service. */
export class GraphBodyDto {
  @Nullable()
  @IsInt({ message: MSG.integer })
  revision?: number | null;

  @IsMap()
  groups: Record<string, Record<string, string>>;

  @Nullable()
  @NonBlankString()
  namespace?: string | null;
}
