import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { col, fk } from './columns';

/**
 * Data permissions down to the table (Metabase's `view-data`, `create-queries` and `download` per table).
 * `database_permission` stays the database-wide level of each group; a `table_permission` row exists only for the
 * kinds a group has granular on that database (a null column: that kind is database-wide). A group's database-wide
 * `create_queries` is new as well: null keeps what `data`/`native` said until now, so existing grants mean the same.
 */
export class TablePermissions1765756800000 implements MigrationInterface {
  name = 'TablePermissions1765756800000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn('database_permission', new TableColumn(col.varchar('create_queries', 32)));
    await qr.createTable(
      new Table({
        name: 'table_permission',
        columns: [
          col.id(),
          col.int('group_id', { isNullable: false }),
          col.int('db_id', { isNullable: false }),
          col.int('table_id', { isNullable: false }),
          col.varchar('view_data', 32),
          col.varchar('create_queries', 32),
          col.varchar('download', 16),
        ],
        foreignKeys: [fk('group_id', 'permissions_group'), fk('db_id', 'metabase_database'), fk('table_id', 'metabase_table')],
        uniques: [{ name: 'uq_table_permission', columnNames: ['group_id', 'table_id'] }],
        indices: [{ name: 'idx_table_permission_group_db', columnNames: ['group_id', 'db_id'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('table_permission');
    await qr.dropColumn('database_permission', 'create_queries');
  }
}
