import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { ListImpersonationsQuery } from './impersonation.dto';
import { ImpersonationService } from './impersonation.service';

/** Connection impersonation policies, Metabase's paths. They are created through PUT /api/permissions/graph. */
@Controller('api/ee/advanced-permissions/impersonation')
export class ImpersonationController {
  constructor(private readonly impersonation: ImpersonationService) {}

  @Get()
  @Access('admin')
  list(@Query() q: ListImpersonationsQuery) {
    return this.impersonation.list(q.group_id, q.db_id);
  }

  @Delete(':id')
  @Access('admin')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number): Promise<void> {
    await this.impersonation.remove(id);
  }
}
