import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { CreateEmbeddingKeyDto } from './embedding-keys.dto';
import { EmbeddingKeysService } from './embedding-keys.service';

/**
 * `/api/embedding/keys`: our own extension, with no Metabase equivalent (Metabase signs every embed token with the one
 * `embedding-secret-key`; metabase#17869 asks for more). Named keys let each customer sign with its own secret, named
 * by the token header's `kid`, so one can be rotated or revoked without touching the others.
 */
@Controller('api/embedding/keys')
@Access('admin')
export class EmbeddingKeysController {
  constructor(private readonly keys: EmbeddingKeysService) {}

  @Get()
  list() {
    return this.keys.list();
  }

  @Post()
  @HttpCode(200)
  create(@Body() body: CreateEmbeddingKeyDto) {
    return this.keys.create(body);
  }

  @Post(':kid/rotate')
  @HttpCode(200)
  rotate(@Param('kid') kid: string) {
    return this.keys.rotate(kid);
  }

  @Delete(':kid')
  @HttpCode(204)
  async revoke(@Param('kid') kid: string) {
    await this.keys.revoke(kid);
  }
}
