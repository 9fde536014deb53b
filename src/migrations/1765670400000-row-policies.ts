import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/**
 * Row and column security policies (Metabase's sandboxes, `/api/mt/gtap`): one per group and table, restricting the
 * table either by a column matched to a user attribute or by a saved question standing in for it. The remappings are
 * JSON text (attribute name -> column, field id or parameter target).
 */
export class RowPolicies1765670400000 implements MigrationInterface {
  name = 'RowPolicies1765670400000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'sandbox',
        columns: [
          col.id(),
          col.int('group_id', { isNullable: false }),
          col.int('table_id', { isNullable: false }),
          col.int('card_id'),
          col.text('attribute_remappings'),
        ],
        // No foreign key on card_id: deleting the question must not delete the policy (and so open the table to
        // the group); a policy whose question is gone refuses every query of its table until an admin fixes it.
        foreignKeys: [fk('group_id', 'permissions_group'), fk('table_id', 'metabase_table')],
        uniques: [{ name: 'uq_sandbox_group_table', columnNames: ['group_id', 'table_id'] }],
        indices: [{ name: 'idx_sandbox_table', columnNames: ['table_id'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('sandbox');
  }
}
