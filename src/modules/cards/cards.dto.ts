import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import {
  Bool,
  BoolString,
  IsMap,
  MaxLen,
  NonBlankString,
  Nullable,
  OneOf,
  PositiveInt,
  PositiveIntArray,
} from '../../common/validation/validators';
import { ParameterList, ParameterMappingList } from '../dataset';
import type { CardType } from '../../schema/card.entity';

export const CARD_TYPES: readonly CardType[] = ['question', 'model', 'metric'];
/** Every `f` of the three releases (v0.52, v0.48, v0.44). */
export const CARD_FILTERS = [
  'all',
  'mine',
  'bookmarked',
  'database',
  'table',
  'using_model',
  'using_segment',
  'using_metric',
  'archived',
  'popular',
  'recent',
] as const;
export type CardFilter = (typeof CARD_FILTERS)[number];

export const EMBEDDING_PARAMS_MSG = 'value must be a valid embedding params map.';
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const ResultMetadata = () =>
  ValidateBy({
    name: 'isResultMetadata',
    validator: {
      validate: (v) => Array.isArray(v) && v.every((c) => isMap(c) && typeof c.name === 'string'),
      defaultMessage: () => 'value must be an array of result column metadata maps (each with a `name`).',
    },
  });

/** `{slug: enabled | locked | disabled}`. */
export const EmbeddingParams = () =>
  ValidateBy({
    name: 'isEmbeddingParams',
    validator: {
      validate: (v) => isMap(v) && Object.values(v).every((x) => x === 'enabled' || x === 'locked' || x === 'disabled'),
      defaultMessage: () => EMBEDDING_PARAMS_MSG,
    },
  });

/** Keys create and update share. */
class CardFieldsDto {
  @Nullable()
  @OneOf(CARD_TYPES)
  type?: CardType | null;

  @Nullable()
  @Bool()
  dataset?: boolean | null;

  @Nullable()
  @ParameterList()
  parameters?: Array<Record<string, unknown>> | null;

  @Nullable()
  @ResultMetadata()
  result_metadata?: Array<Record<string, unknown>> | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @Nullable()
  @PositiveInt()
  collection_position?: number | null;

  @Nullable()
  @PositiveInt()
  cache_ttl?: number | null;
}

export class CreateCardDto extends CardFieldsDto {
  @MaxLen(254)
  @NonBlankString()
  name: string;

  @MaxLen(254)
  @NonBlankString()
  display: string;

  @IsMap()
  visualization_settings: Record<string, unknown>;

  @IsMap()
  dataset_query: Record<string, unknown>;

  @Nullable()
  @NonBlankString()
  description?: string | null;

  @Nullable()
  @ParameterMappingList()
  parameter_mappings?: Array<Record<string, unknown>> | null;
}

export class UpdateCardDto extends CardFieldsDto {
  @IsOptional()
  @MaxLen(254)
  @NonBlankString()
  name?: string;

  @IsOptional()
  @MaxLen(254)
  @NonBlankString()
  display?: string;

  @Nullable()
  @IsMap()
  visualization_settings?: Record<string, unknown> | null;

  @Nullable()
  @IsMap()
  dataset_query?: Record<string, unknown> | null;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;

  @Nullable()
  @Bool()
  enable_embedding?: boolean | null;

  @Nullable()
  @EmbeddingParams()
  embedding_params?: Record<string, string> | null;

  @Nullable()
  @Bool()
  collection_preview?: boolean | null;
}

const IntString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class ListCardsQuery {
  @IsOptional()
  @OneOf(CARD_FILTERS)
  f?: CardFilter;

  @IsOptional()
  @PositiveInt()
  @IntString()
  model_id?: number;
}

export class GetCardQuery {
  @IsOptional()
  @BoolString()
  ignore_view?: boolean;

  @IsOptional()
  @OneOf(['collection'])
  context?: 'collection';
}

export class SeriesQuery {
  @IsOptional()
  @PositiveInt()
  @IntString()
  last_cursor?: number;

  @IsOptional()
  @NonBlankString()
  query?: string;

  /** `exclude_ids=1&exclude_ids=2` (or one value). */
  @IsOptional()
  @PositiveIntArray()
  @Transform(({ value }) =>
    (Array.isArray(value) ? value : [value]).map((v: unknown) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v)),
  )
  exclude_ids?: number[];
}

export class MoveCardsDto {
  @PositiveIntArray()
  card_ids: number[];

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;
}

/** POST /api/cards/move: the cards, and where to: `collection_id` (null: Root) and/or `dashboard_id`. */
export class BulkMoveCardsDto extends MoveCardsDto {
  @Nullable()
  @PositiveInt()
  dashboard_id?: number | null;
}

/** POST /api/cards/dashboards. */
export class CardIdsDto {
  @PositiveIntArray()
  card_ids: number[];
}

export class CardQueryDto {
  @Nullable()
  @IsArray({ message: MSG.array })
  parameters?: Array<Record<string, unknown>> | null;

  @Nullable()
  @Bool()
  ignore_cache?: boolean | null;

  @Nullable()
  @PositiveInt()
  dashboard_id?: number | null;

  @Nullable()
  @Bool()
  collection_preview?: boolean | null;
}
