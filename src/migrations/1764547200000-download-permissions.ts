import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './columns';

/**
 * Download permissions per group and database (`full`, `limited`, `none`), beside the data and native ones. Until
 * now anyone who could run a query could download up to 1,048,575 rows of it: grants with data access keep that
 * (`full`); those without it get `none`, the only level that takes effect without data access.
 */
export class DownloadPermissions1764547200000 implements MigrationInterface {
  name = 'DownloadPermissions1764547200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn('database_permission', new TableColumn(col.varchar('download', 16, { isNullable: false, default: "'full'" })));
    await qr.query(`UPDATE database_permission SET download = 'none' WHERE data <> 'unrestricted'`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('database_permission', 'download');
  }
}
