import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { IsObject } from 'class-validator';
import { Access } from '../../common/auth/access.decorator';
import { hmacKey } from '../../common/crypto/hs256';
import { MessageError } from '../../common/errors/api-errors';
import { SETTINGS_READER, type SettingsReader } from '../../common/settings/settings-reader';
import { MSG } from '../../common/validation/messages';
import { OneOf, PositiveInt } from '../../common/validation/validators';
import { EmbeddingParams } from '../cards';
import { NO_SECRET_KEY } from './embed-token';

export class PreviewTokenDto {
  @OneOf(['dashboard', 'question'])
  resource: 'dashboard' | 'question';

  @PositiveInt()
  id: number;

  @IsObject({ message: MSG.map })
  params: Record<string, unknown>;

  @EmbeddingParams()
  embedding_params: Record<string, string>;
}

const jwt = new JwtService();

/** Ten minutes, the lifetime the spec's reference flow gives its tokens. */
const PREVIEW_SECONDS = 600;

/**
 * `POST /api/preview-embed/token` (not a Metabase route): the token of an admin's preview, signed here. Metabase's
 * embedding dialog reads the secret key and signs in the browser; this server answers the key masked once it is made,
 * so it signs the preview itself: `resource`, `params` and `_embedding_params` (the whitelist the preview tries), for
 * `/api/preview-embed/...` only in effect, since the embed routes ignore `_embedding_params` and want the object's
 * own switch on.
 */
@Controller('api/preview-embed')
export class PreviewTokenController {
  constructor(@Inject(SETTINGS_READER) private readonly settings: SettingsReader) {}

  @Post('token')
  @Access('admin')
  @HttpCode(200)
  async token(@Body() body: PreviewTokenDto): Promise<{ token: string }> {
    const secret = await this.settings.get<string | null>('embedding-secret-key');
    if (!secret) throw new MessageError(NO_SECRET_KEY);
    const claims = { resource: { [body.resource]: body.id }, params: body.params, _embedding_params: body.embedding_params };
    const token = jwt.sign(claims, { secret: hmacKey(secret) as unknown as string, algorithm: 'HS256', expiresIn: PREVIEW_SECONDS });
    return { token };
  }
}
