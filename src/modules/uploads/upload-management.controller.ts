import { Controller, Delete, HttpCode, Param, ParseIntPipe, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { UploadsService } from './uploads.service';

/** Uploaded tables removed (Metabase's upload management, at its enterprise path). */
@Controller('api/ee/upload-management/tables/:id')
export class UploadManagementController {
  constructor(private readonly uploads: UploadsService) {}

  /** Drops the table; its models are archived unless `archive-cards=false`. */
  @Delete()
  @Access('user')
  @HttpCode(200)
  async remove(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseIntPipe) id: number,
    @Query('archive-cards') archive?: string,
  ): Promise<void> {
    await this.uploads.deleteTable(user, id, archive !== 'false');
  }
}
