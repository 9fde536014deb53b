import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/**
 * Persisted models (Metabase's `persisted_info`): one row per model whose result is stored as a table in its
 * warehouse, with the table's place, the state of the last build, the hash of the query it was built from (a changed
 * query makes it stale), and a lease so that one instance at a time rebuilds it. Lease expiry in epoch milliseconds.
 */
export class PersistedModels1765238400000 implements MigrationInterface {
  name = 'PersistedModels1765238400000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'persisted_info',
        columns: [
          col.id(),
          col.int('database_id', { isNullable: false }),
          col.int('card_id', { isNullable: false, isUnique: true }),
          col.varchar('question_slug', 254),
          col.varchar('schema_name', 254, { isNullable: false }),
          col.varchar('table_name', 254, { isNullable: false }),
          col.text('definition'),
          col.varchar('query_hash', 64),
          col.bool('active', false),
          col.varchar('state', 32, { isNullable: false }),
          col.timestamp(qr, 'refresh_begin'),
          col.timestamp(qr, 'refresh_end'),
          col.timestamp(qr, 'state_change_at'),
          col.text('error'),
          col.int('creator_id'),
          col.timestamp(qr, 'created_at', { now: true }),
          col.varchar('lease_holder', 128),
          col.bigint('lease_until'),
        ],
        foreignKeys: [fk('database_id', 'metabase_database'), fk('card_id', 'report_card'), fk('creator_id', 'core_user', 'SET NULL')],
        indices: [{ name: 'idx_persisted_info_database', columnNames: ['database_id'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('persisted_info');
  }
}
