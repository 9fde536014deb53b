import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { writeSampleDatabase } from './write';
import { SAMPLE_FORMAT_VERSION } from './writers/sqlite.sink';

export const SAMPLE_DATABASE_FILE = 'sample-database.db';

/**
 * The default Sample Database: a SQLite file under the data directory, generated on first use (about a second).
 * It is written under a temporary name and then hard-linked into place, which fails if another instance got
 * there first, so concurrent starts never clash and nobody ever opens a half-written file. A file left by an
 * older generator version is regenerated and replaced.
 */
export async function ensureSampleDatabase(dataDir: string): Promise<string> {
  const target = path.join(dataDir, SAMPLE_DATABASE_FILE);
  if (isCurrent(target)) return target;
  fs.mkdirSync(dataDir, { recursive: true });
  const temp = path.join(dataDir, `.${SAMPLE_DATABASE_FILE}.${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeSampleDatabase({ engine: 'sqlite', file: temp });
    if (fs.existsSync(target) && !isCurrent(target)) {
      fs.renameSync(temp, target);
    } else {
      try {
        fs.linkSync(temp, target);
      } catch (e) {
        // EEXIST: another instance finished first, and its file is as good as ours.
        // Without hard links (some mounted volumes) rename, which is atomic too; a racer's identical file may be replaced.
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') fs.renameSync(temp, target);
      }
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return target;
}

function isCurrent(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.pragma('user_version', { simple: true }) === SAMPLE_FORMAT_VERSION;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}
