import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { PersistenceService } from './persistence.service';

/** The per-database switch of model persistence (admin, as in Metabase). */
@Controller('api/database/:id')
export class DatabasePersistController {
  constructor(private readonly persistence: PersistenceService) {}

  @Post('persist')
  @Access('admin')
  @HttpCode(204)
  async enable(@Param('id', IdParam()) id: number): Promise<void> {
    await this.persistence.enableDatabase(id);
  }

  @Post('unpersist')
  @Access('admin')
  @HttpCode(204)
  async disable(@Param('id', IdParam()) id: number): Promise<void> {
    await this.persistence.disableDatabase(id);
  }
}
