import * as fs from 'node:fs';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { UploadedCsv } from './uploads.service';

/** The part of multer's file record used here (disk storage). */
export interface MulterFile {
  path: string;
  originalname: string;
}

/** `collection_id` of the multipart form: a positive id, or `root`/empty for the root collection. */
export function collectionId(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '' || raw === 'root' || raw === 'null') return null;
  if (typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw)) return Number(raw);
  throw ValidationError.of('collection_id', 'value must be a positive integer or `root`.', raw);
}

/** The uploaded file, removed from the temp folder whatever happens. */
export async function withFile<T>(file: MulterFile | undefined, work: (f: UploadedCsv) => Promise<T>): Promise<T> {
  if (!file) throw new MessageError('No file was sent: attach the CSV file as `file`.');
  try {
    return await work({ path: file.path, originalname: file.originalname });
  } finally {
    await fs.promises.rm(file.path, { force: true });
  }
}
