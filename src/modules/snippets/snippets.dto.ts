import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { Bool, BoolString, MaxLen, NonBlankString, Nullable, PositiveInt } from '../../common/validation/validators';

/** Metabase's rule: a name that could not be written inside `{{snippet: ...}}` is refused. */
const SNIPPET_NAME = /^[^\s}][^}]*$/;
const NAME_RULE = "snippet names cannot include '}' or start with spaces";

/** Checked in this order (applyDecorators applies, and class-validator checks, first to last). */
const SnippetName = () => applyDecorators(NonBlankString(), MaxLen(254), Matches(SNIPPET_NAME, { message: NAME_RULE }));

export class CreateSnippetDto {
  @SnippetName()
  name: string;

  @IsString({ message: 'value must be a string.' })
  content: string;

  @Nullable()
  @IsString({ message: 'value must be a string.' })
  description?: string | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;
}

export class UpdateSnippetDto {
  @IsOptional()
  @SnippetName()
  name?: string;

  @ValidateIf((_o, v) => v !== undefined)
  @IsString({ message: 'value must be a string.' })
  content?: string;

  @Nullable()
  @IsString({ message: 'value must be a string.' })
  description?: string | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @IsOptional()
  @Bool()
  archived?: boolean;
}

export class ListSnippetsQuery {
  @IsOptional()
  @BoolString()
  archived?: boolean;
}
