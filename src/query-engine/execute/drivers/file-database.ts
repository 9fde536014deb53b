import * as fs from 'node:fs';
import { ConnectionError } from './errors';

/**
 * Checked each time a SQLite or DuckDB file is opened: it exists (unless we may create it), and its path is
 * still canonical. validateDetails() stored the realpath, so a symlink swapped in since then changes the
 * realpath and is refused here.
 */
export function checkDatabaseFile(db: string, mayCreate: boolean): void {
  let real: string;
  try {
    real = fs.realpathSync(db);
  } catch {
    if (mayCreate) return;
    throw new ConnectionError(`File ${db} does not exist.`, 'db');
  }
  if (real !== db) throw new ConnectionError(`File ${db} is now a link to another location; connect to it again.`);
  if (!fs.statSync(real).isFile()) throw new ConnectionError(`${db} is not a file.`);
}
