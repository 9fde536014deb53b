import { Body, Controller, Header, HttpCode, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { AcceptsFormFromOwnSite } from '../../common/http/accepts-form';
import { collectionId, MulterFile, withFile } from './uploaded-file';
import { UploadsService } from './uploads.service';

/** A CSV file uploaded as a new table of the uploads database, with a model on it. */
@Controller('api/card/from-csv')
export class CardFromCsvController {
  constructor(private readonly uploads: UploadsService) {}

  /** Answers the new model's id (Metabase answers the bare number). */
  @Post()
  @Header('Content-Type', 'application/json')
  @Access('user')
  @HttpCode(200)
  // A file upload is multipart by nature (Metabase's client sends it so).
  @AcceptsFormFromOwnSite()
  @UseInterceptors(FileInterceptor('file'))
  fromCsv(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: MulterFile | undefined,
    @Body() body: Record<string, unknown>,
  ): Promise<number> {
    return withFile(file, (f) => this.uploads.fromCsv(user, f, collectionId(body?.collection_id)));
  }
}
