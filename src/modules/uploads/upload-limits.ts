import * as os from 'node:os';
import * as path from 'node:path';
import type { MulterOptions } from '@nestjs/platform-express/multer/interfaces/multer-options.interface';

/**
 * Columns an upload's file may have. The tightest engine that takes uploads is MySQL/MariaDB's InnoDB, at 1,017
 * columns a table, one of which may be the generated key (Postgres allows 1,600; Metabase sets no limit of its own).
 */
export const MAX_UPLOAD_COLUMNS = 1000;

/** 200 MB unless UPLOAD_MAX_MB says otherwise. */
export function uploadMaxBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.UPLOAD_MAX_MB ?? 200);
  return (Number.isFinite(mb) && mb > 0 ? mb : 200) * 1024 * 1024;
}

/**
 * Files go to disk (never held in memory) under random names multer picks: the client's file name never reaches
 * the file system. One file per request, a few small fields.
 */
export function multerOptions(): MulterOptions {
  return {
    dest: path.join(os.tmpdir(), 'analytics-uploads'),
    limits: { fileSize: uploadMaxBytes(), files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  };
}
