import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, BoolString, IntBetween, IsMap, NonBlankString, Nullable, OneOf, PositiveInt } from '../../common/validation/validators';
import { ENGINES, Engine } from '../../query-engine/execute/drivers/driver';

/** What both creating and updating a database may set, all optional. */
class DatabaseOptionsDto {
  @Nullable()
  @NonBlankString()
  description?: string | null;

  @IsOptional()
  @Bool()
  is_full_sync?: boolean;

  @IsOptional()
  @Bool()
  auto_run_queries?: boolean;

  @Nullable()
  @PositiveInt()
  cache_ttl?: number | null;

  /** Minutes between metadata syncs (default 60). */
  @IsOptional()
  @IntBetween(5, 10080)
  metadata_sync_interval_minutes?: number;

  /** Minutes between field-value scans (default 1440). */
  @IsOptional()
  @IntBetween(60, 43200)
  field_values_interval_minutes?: number;

  /** Database-local settings (database-settings.ts), e.g. `database-enable-actions`. */
  @Nullable()
  @IsMap()
  settings?: Record<string, unknown> | null;
}

export class CreateDatabaseDto extends DatabaseOptionsDto {
  @OneOf(ENGINES)
  engine: Engine;

  @NonBlankString()
  name: string;

  @IsMap()
  details: Record<string, unknown>;
}

export class UpdateDatabaseDto extends DatabaseOptionsDto {
  @IsOptional()
  @OneOf(ENGINES)
  engine?: Engine;

  @IsOptional()
  @NonBlankString()
  name?: string;

  @IsOptional()
  @IsMap()
  details?: Record<string, unknown>;

  @Nullable()
  @NonBlankString()
  caveats?: string | null;

  @Nullable()
  @NonBlankString()
  points_of_interest?: string | null;
}

export class ListDatabasesQuery {
  @IsOptional()
  @OneOf(['tables'])
  include?: 'tables';

  @IsOptional()
  @BoolString()
  saved?: boolean;
}

export class MetadataQuery {
  @IsOptional()
  @BoolString()
  include_hidden?: boolean;
}

/** `?include=tables` adds the database's tables; `tables.fields` their fields too. */
export class GetDatabaseQuery {
  @IsOptional()
  @OneOf(['tables', 'tables.fields'])
  include?: 'tables' | 'tables.fields';
}

/** The connection to try: the same `engine` and `details` as a database is created with. */
export class ConnectionToValidateDto {
  @OneOf(ENGINES)
  engine: Engine;

  @IsMap()
  details: Record<string, unknown>;
}

/** POST /api/database/validate takes the connection under the key `details` (as Metabase does). */
export class ValidateDatabaseDto {
  @IsObject({ message: MSG.map })
  @ValidateNested()
  @Type(() => ConnectionToValidateDto)
  details: ConnectionToValidateDto;
}
