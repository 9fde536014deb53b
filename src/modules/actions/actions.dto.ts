import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString } from 'class-validator';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { Bool, IsMap, MaxLen, NonBlankString, Nullable, OneOf, PositiveInt } from '../../common/validation/validators';
import { ACTION_TYPES, IMPLICIT_KINDS, type ActionType, type ImplicitKind } from '../../schema/action.entity';

/** GET /api/action/: `model-id` narrows to one model's actions. */
export class ListActionsQuery {
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @PositiveInt()
  'model-id'?: number;
}

/** POST /api/action/. */
export class CreateActionDto {
  @MaxLen(254)
  @NonBlankString()
  name: string;

  @PositiveInt()
  model_id: number;

  @Nullable()
  @OneOf(ACTION_TYPES)
  type?: ActionType | null;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @PositiveInt()
  database_id?: number | null;

  @Nullable()
  @IsMap()
  dataset_query?: Record<string, unknown> | null;

  @Nullable()
  @OneOf(IMPLICIT_KINDS)
  kind?: ImplicitKind | null;

  @Nullable()
  @IsArray({ message: MSG.array })
  parameters?: unknown[] | null;

  @Nullable()
  @IsArray({ message: MSG.array })
  parameter_mappings?: unknown[] | null;

  @Nullable()
  @IsMap()
  visualization_settings?: Record<string, unknown> | null;
}

/** PUT /api/action/:id: every key optional. */
export class UpdateActionDto {
  @Nullable()
  @MaxLen(254)
  @NonBlankString()
  name?: string | null;

  @Nullable()
  @PositiveInt()
  model_id?: number | null;

  @Nullable()
  @OneOf(ACTION_TYPES)
  type?: ActionType | null;

  @IsOptional()
  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @PositiveInt()
  database_id?: number | null;

  @Nullable()
  @IsMap()
  dataset_query?: Record<string, unknown> | null;

  @Nullable()
  @OneOf(IMPLICIT_KINDS)
  kind?: ImplicitKind | null;

  @Nullable()
  @IsArray({ message: MSG.array })
  parameters?: unknown[] | null;

  @Nullable()
  @IsArray({ message: MSG.array })
  parameter_mappings?: unknown[] | null;

  @Nullable()
  @IsMap()
  visualization_settings?: Record<string, unknown> | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;
}

/** POST /api/action/:id/execute and POST /api/public/action/:uuid/execute: the action's parameter values by id. */
export class ExecuteActionDto {
  @Nullable()
  @IsMap()
  parameters?: Record<string, unknown> | null;
}

/** POST .../dashcard/:dashcard-id/execute: values of the dashboard's parameters mapped to the action, and the user's. */
export class ExecuteDashcardDto {
  @Nullable()
  @IsMap()
  parameters?: Record<string, unknown> | null;

  @Nullable()
  @IsMap()
  extra_parameters?: Record<string, unknown> | null;
}

/** GET .../dashcard/:dashcard-id/execute: `parameters`, a required JSON map (the row's primary key values). */
export function parseJsonMap(name: string, raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') throw ValidationError.of(name, MSG.jsonString, raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw ValidationError.of(name, MSG.jsonString, raw);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw ValidationError.of(name, MSG.jsonString, raw);
  return parsed as Record<string, unknown>;
}
