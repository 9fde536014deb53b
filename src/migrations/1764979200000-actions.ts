import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { col, fk } from './columns';

/**
 * Actions, as Metabase names them: `action` (one per action, on a model: a card of type `model`), with the row of its
 * kind in `query_action` (parameterised SQL on a database) or `implicit_action` (row/create, row/update, row/delete
 * on the model's table). An action goes with its model; a dashcard showing an action goes with the action
 * (`report_dashboardcard.action_id`, a column since the dashboards migration, gets its key here).
 */
export class Actions1764979200000 implements MigrationInterface {
  name = 'Actions1764979200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'action',
        columns: [
          col.id(),
          col.int('model_id', { isNullable: false }),
          col.varchar('type', 32, { isNullable: false }),
          col.varchar('name', 254, { isNullable: false }),
          col.text('description'),
          col.text('parameters'),
          col.text('parameter_mappings'),
          col.text('visualization_settings'),
          col.varchar('public_uuid', 36),
          col.int('made_public_by_id'),
          col.int('creator_id', { isNullable: false }),
          col.bool('archived', false),
          col.varchar('entity_id', 21),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [
          fk('model_id', 'report_card'),
          fk('made_public_by_id', 'core_user', 'SET NULL'),
          fk('creator_id', 'core_user', 'RESTRICT'),
        ],
        indices: [
          { name: 'idx_action_model', columnNames: ['model_id'] },
          { name: 'idx_action_public_uuid', columnNames: ['public_uuid'], isUnique: true },
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'query_action',
        columns: [
          { ...col.int('action_id', { isNullable: false }), isPrimary: true },
          col.int('database_id', { isNullable: false }),
          col.text('dataset_query', { isNullable: false }),
        ],
        foreignKeys: [fk('action_id', 'action'), fk('database_id', 'metabase_database')],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'implicit_action',
        columns: [{ ...col.int('action_id', { isNullable: false }), isPrimary: true }, col.varchar('kind', 32, { isNullable: false })],
        foreignKeys: [fk('action_id', 'action')],
      }),
    );
    await qr.createForeignKey('report_dashboardcard', new TableForeignKey(fk('action_id', 'action')));
    await qr.query('CREATE INDEX idx_dashboardcard_action ON report_dashboardcard (action_id)');
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query('DROP INDEX idx_dashboardcard_action');
    const table = await qr.getTable('report_dashboardcard');
    const key = table?.foreignKeys.find((k) => k.columnNames.includes('action_id'));
    if (key) await qr.dropForeignKey('report_dashboardcard', key);
    for (const t of ['implicit_action', 'query_action', 'action']) await qr.dropTable(t);
  }
}
