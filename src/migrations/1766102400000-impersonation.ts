import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/**
 * Connection impersonation policies (Metabase's `connection_impersonations`): a group's queries on a database run under
 * the warehouse role named by one of the user's attributes. One per group and database.
 */
export class Impersonation1766102400000 implements MigrationInterface {
  name = 'Impersonation1766102400000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'impersonation',
        columns: [
          col.id(),
          col.int('group_id', { isNullable: false }),
          col.int('db_id', { isNullable: false }),
          col.text('attribute', { isNullable: false }),
        ],
        foreignKeys: [fk('group_id', 'permissions_group'), fk('db_id', 'metabase_database')],
        uniques: [{ name: 'uq_impersonation_group_db', columnNames: ['group_id', 'db_id'] }],
        indices: [{ name: 'idx_impersonation_db', columnNames: ['db_id'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('impersonation');
  }
}
