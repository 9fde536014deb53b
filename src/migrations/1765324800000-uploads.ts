import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './columns';

/**
 * CSV uploads: a per-group, per-database `upload` permission (`yes`/`no`; nobody but admins may upload until an
 * admin grants it) and a mark on the tables that uploads made, the only ones append/replace/delete may touch.
 */
export class Uploads1765324800000 implements MigrationInterface {
  name = 'Uploads1765324800000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn('database_permission', new TableColumn(col.varchar('upload', 16, { isNullable: false, default: "'no'" })));
    await qr.addColumn('metabase_table', new TableColumn(col.bool('is_upload', false)));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('metabase_table', 'is_upload');
    await qr.dropColumn('database_permission', 'upload');
  }
}
