import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey } from 'typeorm';
import { col, fk } from './columns';

/** Dashboards, their tabs, their cards (dashcards) and each dashcard's extra series; cards saved into a dashboard. */
export class Dashboards1764460800000 implements MigrationInterface {
  name = 'Dashboards1764460800000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'report_dashboard',
        columns: [
          col.id(),
          col.varchar('name', 254, { isNullable: false }),
          col.text('description'),
          col.text('parameters'),
          col.int('collection_id'),
          col.int('collection_position'),
          col.int('cache_ttl'),
          col.bool('archived', false),
          col.bool('archived_directly', false),
          col.varchar('width', 16, { isNullable: false, default: "'fixed'" }),
          col.bool('auto_apply_filters', true),
          col.bool('enable_embedding', false),
          col.text('embedding_params'),
          col.varchar('public_uuid', 36, { isUnique: true }),
          col.int('made_public_by_id'),
          col.int('creator_id', { isNullable: false }),
          col.varchar('entity_id', 21),
          col.int('view_count', { isNullable: false, default: 0 }),
          col.timestamp(qr, 'last_viewed_at'),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [
          fk('collection_id', 'collection', 'SET NULL'),
          fk('creator_id', 'core_user', 'RESTRICT'),
          fk('made_public_by_id', 'core_user', 'SET NULL'),
        ],
        indices: [
          { name: 'idx_report_dashboard_collection', columnNames: ['collection_id', 'archived'] },
          { name: 'idx_report_dashboard_creator', columnNames: ['creator_id'] },
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'dashboard_tab',
        columns: [
          col.id(),
          col.int('dashboard_id', { isNullable: false }),
          col.varchar('name', 254, { isNullable: false }),
          col.int('position', { isNullable: false, default: 0 }),
          col.varchar('entity_id', 21),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [fk('dashboard_id', 'report_dashboard')],
        indices: [{ name: 'idx_dashboard_tab_dashboard', columnNames: ['dashboard_id'] }],
      }),
    );
    // card_id null: a virtual card (text, heading, link) that only has visualization settings.
    await qr.createTable(
      new Table({
        name: 'report_dashboardcard',
        columns: [
          col.id(),
          col.int('dashboard_id', { isNullable: false }),
          col.int('card_id'),
          col.int('dashboard_tab_id'),
          col.int('action_id'),
          col.int('row', { isNullable: false, default: 0 }),
          col.int('col', { isNullable: false, default: 0 }),
          col.int('size_x', { isNullable: false, default: 4 }),
          col.int('size_y', { isNullable: false, default: 4 }),
          col.text('parameter_mappings'),
          col.text('visualization_settings'),
          col.text('inline_parameters'),
          col.varchar('entity_id', 21),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [fk('dashboard_id', 'report_dashboard'), fk('card_id', 'report_card'), fk('dashboard_tab_id', 'dashboard_tab')],
        indices: [
          { name: 'idx_dashboardcard_dashboard', columnNames: ['dashboard_id'] },
          { name: 'idx_dashboardcard_card', columnNames: ['card_id'] },
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'dashboardcard_series',
        columns: [
          col.id(),
          col.int('dashboardcard_id', { isNullable: false }),
          col.int('card_id', { isNullable: false }),
          col.int('position', { isNullable: false, default: 0 }),
        ],
        foreignKeys: [fk('dashboardcard_id', 'report_dashboardcard'), fk('card_id', 'report_card')],
        indices: [{ name: 'idx_dashboardcard_series_dashcard', columnNames: ['dashboardcard_id'] }],
      }),
    );
    // A question saved into a dashboard lives only there: deleting the dashboard deletes it (the service does that,
    // since a card may have been put on other dashboards too).
    await qr.addColumn('report_card', new TableColumn(col.int('dashboard_id')));
    await qr.createForeignKey('report_card', new TableForeignKey({ ...fk('dashboard_id', 'report_dashboard', 'SET NULL') }));
    await qr.query('CREATE INDEX idx_report_card_dashboard ON report_card (dashboard_id)');
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query('DROP INDEX idx_report_card_dashboard');
    const table = await qr.getTable('report_card');
    const key = table?.foreignKeys.find((k) => k.columnNames.includes('dashboard_id'));
    if (key) await qr.dropForeignKey('report_card', key);
    await qr.dropColumn('report_card', 'dashboard_id');
    for (const t of ['dashboardcard_series', 'report_dashboardcard', 'dashboard_tab', 'report_dashboard']) await qr.dropTable(t);
  }
}
