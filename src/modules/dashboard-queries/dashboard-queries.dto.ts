import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, Nullable } from '../../common/validation/validators';

export const PARAMETER_VALUES_MSG = 'value must be an array of maps, each with an `id`.';
export const FILTERED_MSG = 'value must be an integer greater than zero, or a non-empty list of them.';
export const FILTERING_MSG = 'value must be an integer greater than zero, or a list of them.';

const isIdMap = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && 'id' in (v as object);

/** Body of a dashcard query: the dashboard's parameter values, `[{id, value}]`. */
export class DashcardQueryDto {
  @Nullable()
  @IsArray({ message: MSG.array })
  @ValidateBy({
    name: 'isParameterValues',
    validator: { validate: (v) => !Array.isArray(v) || v.every(isIdMap), defaultMessage: () => PARAMETER_VALUES_MSG },
  })
  parameters?: Array<Record<string, unknown>> | null;

  @Nullable()
  @Bool()
  ignore_cache?: boolean | null;

  @Nullable()
  @Bool()
  collection_preview?: boolean | null;

  /** Sent by Metabase's frontend to tell one load of the dashboard from another; nothing to do with the result. */
  @IsOptional()
  @IsString({ message: 'value must be a string.' })
  dashboard_load_id?: string;
}

const ID = /^[1-9]\d{0,9}$/;
const asList = (v: unknown): unknown[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
const ids = (v: unknown): number[] | unknown => {
  const list = asList(v);
  if (!list) return v;
  return list.every((x) => typeof x === 'string' && ID.test(x) && Number(x) <= 2_147_483_647) ? list.map(Number) : v;
};
const isIds = (v: unknown, nonEmpty: boolean) => Array.isArray(v) && (!nonEmpty || v.length > 0) && v.every((x) => typeof x === 'number');

/** GET /api/dashboard/params/valid-filter-fields: `filtered` one or more field ids, `filtering` zero or more. */
export class ValidFilterFieldsQuery {
  @Transform(({ value }) => ids(value))
  @ValidateBy({ name: 'isFiltered', validator: { validate: (v) => isIds(v, true), defaultMessage: () => FILTERED_MSG } })
  filtered: number[];

  @IsOptional()
  @Transform(({ value }) => ids(value))
  @ValidateBy({ name: 'isFiltering', validator: { validate: (v) => isIds(v, false), defaultMessage: () => FILTERING_MSG } })
  filtering?: number[];
}
