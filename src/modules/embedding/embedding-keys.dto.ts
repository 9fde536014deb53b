import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';
import { MaxLen, NonBlankString, Nullable } from '../../common/validation/validators';
import { iso } from '../../common/views/wire-values';
import type { EmbeddingKey } from '../../schema/embedding-key.entity';

/** What a `kid` may be: a slug that survives a JOSE header and a URL path unescaped. */
export const KID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** At least 256 bits as hex (what `embedding-secret-key` holds); the upper bound only keeps rows small. */
export const SECRET_PATTERN = /^[0-9a-fA-F]{64,512}$/;
export const NAME_MAX = 254;

const KID_MESSAGE = 'value must be 1 to 64 letters, digits, `_`, `.` or `-`.';
const SECRET_MESSAGE = 'value must be between 64 and 512 hexadecimal characters.';

const Pattern = (re: RegExp, message: string) => applyDecorators(IsString({ message }), Matches(re, { message }));

export class CreateEmbeddingKeyDto {
  @Pattern(KID_PATTERN, KID_MESSAGE)
  kid: string;

  @MaxLen(NAME_MAX)
  @NonBlankString()
  name: string;

  /** Given when a host already holds the secret; the server generates 256 random bits otherwise. */
  @Nullable()
  @Pattern(SECRET_PATTERN, SECRET_MESSAGE)
  secret?: string | null;
}

export interface EmbeddingKeyView {
  id: number;
  kid: string;
  name: string;
  /** The last two characters behind a mask, as sensitive settings are shown. */
  masked_secret: string;
  created_at: string;
  revoked_at: string | null;
  /** Only in the answers of create and rotate: the one time the secret is shown in full. */
  secret?: string;
}

const MASK = '**********';

export function maskSecret(secret: string): string {
  return MASK + secret.slice(-2);
}

export function toEmbeddingKeyView(key: EmbeddingKey, plainSecret: string, reveal = false): EmbeddingKeyView {
  return {
    id: key.id,
    kid: key.kid,
    name: key.name,
    masked_secret: maskSecret(plainSecret),
    created_at: iso(key.created_at)!,
    revoked_at: iso(key.revoked_at),
    ...(reveal ? { secret: plainSecret } : {}),
  };
}
