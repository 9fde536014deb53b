import { Controller, HttpCode, Param, ParseIntPipe, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { AcceptsFormFromOwnSite } from '../../common/http/accepts-form';
import { MulterFile, withFile } from './uploaded-file';
import { UploadsService } from './uploads.service';

/** A CSV file's rows added to an uploaded table, or put in place of its rows. */
@Controller('api/table/:id')
export class TableCsvController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('append-csv')
  @Access('user')
  @HttpCode(200)
  // A file upload is multipart by nature (Metabase's client sends it so).
  @AcceptsFormFromOwnSite()
  @UseInterceptors(FileInterceptor('file'))
  async append(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: MulterFile | undefined,
  ): Promise<void> {
    await withFile(file, (f) => this.uploads.appendCsv(user, id, f, false));
  }

  @Post('replace-csv')
  @Access('user')
  @HttpCode(200)
  // A file upload is multipart by nature (Metabase's client sends it so).
  @AcceptsFormFromOwnSite()
  @UseInterceptors(FileInterceptor('file'))
  async replace(
    @CurrentUser() user: AuthUser,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: MulterFile | undefined,
  ): Promise<void> {
    await withFile(file, (f) => this.uploads.appendCsv(user, id, f, true));
  }
}
