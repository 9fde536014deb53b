import { Body, Controller, Delete, Header, HttpCode, Param, ParseIntPipe, Post, Query, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import * as fs from 'node:fs';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { AcceptsFormFromOwnSite } from '../../common/http/accepts-form';
import { UploadedCsv, UploadsService } from './uploads.service';

/** The part of multer's file record used here (disk storage). */
interface MulterFile {
  path: string;
  originalname: string;
}

/** `collection_id` of the multipart form: a positive id, or `root`/empty for the root collection. */
function collectionId(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '' || raw === 'root' || raw === 'null') return null;
  if (typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw)) return Number(raw);
  throw ValidationError.of('collection_id', 'value must be a positive integer or `root`.', raw);
}

/** The uploaded file, removed from the temp folder whatever happens. */
async function withFile<T>(file: MulterFile | undefined, work: (f: UploadedCsv) => Promise<T>): Promise<T> {
  if (!file) throw new MessageError('No file was sent: attach the CSV file as `file`.');
  try {
    return await work({ path: file.path, originalname: file.originalname });
  } finally {
    await fs.promises.rm(file.path, { force: true });
  }
}

@Controller('api')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  /** Answers the new model's id (Metabase answers the bare number). */
  @Post('card/from-csv')
  @Header('Content-Type', 'application/json')
  @Access('user')
  @HttpCode(200)
  // A file upload is multipart by nature (Metabase's client sends it so).
  @AcceptsFormFromOwnSite()
  @UseInterceptors(FileInterceptor('file'))
  fromCsv(@CurrentUser() user: AuthUser, @UploadedFile() file: MulterFile | undefined, @Body() body: Record<string, unknown>): Promise<number> {
    return withFile(file, (f) => this.uploads.fromCsv(user, f, collectionId(body?.collection_id)));
  }

  @Post('table/:id/append-csv')
  @Access('user')
  @HttpCode(200)
  // A file upload is multipart by nature (Metabase's client sends it so).
  @AcceptsFormFromOwnSite()
  @UseInterceptors(FileInterceptor('file'))
  async append(@CurrentUser() user: AuthUser, @Param('id', ParseIntPipe) id: number, @UploadedFile() file: MulterFile | undefined): Promise<void> {
    await withFile(file, (f) => this.uploads.appendCsv(user, id, f, false));
  }

  @Post('table/:id/replace-csv')
  @Access('user')
  @HttpCode(200)
  // A file upload is multipart by nature (Metabase's client sends it so).
  @AcceptsFormFromOwnSite()
  @UseInterceptors(FileInterceptor('file'))
  async replace(@CurrentUser() user: AuthUser, @Param('id', ParseIntPipe) id: number, @UploadedFile() file: MulterFile | undefined): Promise<void> {
    await withFile(file, (f) => this.uploads.appendCsv(user, id, f, true));
  }

  /** Drops the table; its models are archived unless `archive-cards=false`. */
  @Delete('ee/upload-management/tables/:id')
  @Access('user')
  @HttpCode(200)
  async remove(@CurrentUser() user: AuthUser, @Param('id', ParseIntPipe) id: number, @Query('archive-cards') archive?: string): Promise<void> {
    await this.uploads.deleteTable(user, id, archive !== 'false');
  }
}
