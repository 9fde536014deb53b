import { IsOptional, IsString, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, MaxLen, NonBlankString, Nullable, OneOf, PositiveInt } from '../../common/validation/validators';
import { ParameterList } from '../dataset';
import { EmbeddingParams } from '../cards';

export const DASHBOARD_FILTERS = ['all', 'mine', 'archived'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];
export const WIDTHS = ['fixed', 'full'] as const;

/** The spec's message, word for word, for a list of maps whose ids repeat (`dashcards`, `tabs`, `cards`). */
export const UNIQUE_IDS_MSG = 'ids must be unique';
/** The same lists when they are not lists of maps at all. */
export const ID_MAPS_MSG = 'value must be an array of maps.';

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isMapList = (v: unknown): v is Array<Record<string, unknown>> => Array.isArray(v) && v.every(isMap);

export function uniqueIds(v: unknown): boolean {
  if (!isMapList(v)) return false;
  const ids = v.map((m) => m.id).filter((id) => id !== undefined && id !== null);
  return new Set(ids).size === ids.length;
}

const UniqueIdMaps = () =>
  ValidateBy({
    name: 'uniqueIds',
    validator: { validate: uniqueIds, defaultMessage: (args) => (isMapList(args?.value) ? UNIQUE_IDS_MSG : ID_MAPS_MSG) },
  });

export class CreateDashboardDto {
  @MaxLen(254)
  @NonBlankString()
  name: string;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @ParameterList()
  parameters?: Array<Record<string, unknown>> | null;

  @Nullable()
  @PositiveInt()
  cache_ttl?: number | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @Nullable()
  @PositiveInt()
  collection_position?: number | null;
}

/** PUT /api/dashboard/:id: the body of GET, every key optional. */
export class UpdateDashboardDto {
  @IsOptional()
  @MaxLen(254)
  @NonBlankString()
  name?: string;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @ParameterList()
  parameters?: Array<Record<string, unknown>> | null;

  @Nullable()
  @IsString({ message: MSG.string })
  points_of_interest?: string | null;

  @Nullable()
  @IsString({ message: MSG.string })
  caveats?: string | null;

  @Nullable()
  @Bool()
  show_in_getting_started?: boolean | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;

  @Nullable()
  @UniqueIdMaps()
  dashcards?: Array<Record<string, unknown>> | null;

  @Nullable()
  @UniqueIdMaps()
  tabs?: Array<Record<string, unknown>> | null;

  @Nullable()
  @PositiveInt()
  collection_position?: number | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @Nullable()
  @Bool()
  enable_embedding?: boolean | null;

  @Nullable()
  @EmbeddingParams()
  embedding_params?: Record<string, string> | null;

  @Nullable()
  @OneOf(WIDTHS)
  width?: 'fixed' | 'full' | null;

  @Nullable()
  @PositiveInt()
  cache_ttl?: number | null;

  @Nullable()
  @PositiveInt()
  position?: number | null;

  @Nullable()
  @Bool()
  auto_apply_filters?: boolean | null;
}

/** The deprecated PUT /api/dashboard/:id/cards. */
export class UpdateCardsDto {
  @UniqueIdMaps()
  cards: Array<Record<string, unknown>>;

  @Nullable()
  @UniqueIdMaps()
  tabs?: Array<Record<string, unknown>> | null;
}

export class ListDashboardsQuery {
  @IsOptional()
  @OneOf(DASHBOARD_FILTERS)
  f?: DashboardFilter;
}

export class GetDashboardQuery {
  @IsOptional()
  @IsString({ message: MSG.string })
  dashboard_load_id?: string;
}

export class CopyDashboardDto {
  @IsOptional()
  @MaxLen(254)
  @NonBlankString()
  name?: string;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @Nullable()
  @PositiveInt()
  collection_position?: number | null;

  @Nullable()
  @Bool()
  is_deep_copy?: boolean | null;
}

export class RevertDashboardDto {
  @PositiveInt()
  revision_id: number;
}
