import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { col, fk } from './columns';

/**
 * Legacy metrics and segments (Metabase's `metric` and `segment`): named aggregation and filter definitions (MBQL
 * JSON) on a table, used in queries as `["metric", id]` and `["segment", id]`; and the up to three important fields
 * of a metric (`metric_important_field`) for the Getting Started guide. Both go with their table.
 */
export class MetricsSegments1764892800000 implements MigrationInterface {
  name = 'MetricsSegments1764892800000';

  async up(qr: QueryRunner): Promise<void> {
    for (const [name, extra] of [
      ['segment', []],
      ['metric', [col.text('how_is_this_calculated')]],
    ] as const) {
      await qr.createTable(
        new Table({
          name,
          columns: [
            col.id(),
            col.int('table_id', { isNullable: false }),
            col.int('creator_id', { isNullable: false }),
            col.varchar('name', 254, { isNullable: false }),
            col.text('description'),
            col.bool('archived', false),
            col.text('definition', { isNullable: false }),
            col.text('caveats'),
            col.text('points_of_interest'),
            ...(extra as readonly TableColumnOptions[]),
            col.bool('show_in_getting_started', false),
            col.varchar('entity_id', 21, { isUnique: true }),
            col.timestamp(qr, 'created_at', { now: true }),
            col.timestamp(qr, 'updated_at', { now: true }),
          ],
          foreignKeys: [fk('table_id', 'metabase_table'), fk('creator_id', 'core_user', 'RESTRICT')],
          indices: [{ name: `idx_${name}_table`, columnNames: ['table_id', 'archived'] }],
        }),
      );
    }
    await qr.createTable(
      new Table({
        name: 'metric_important_field',
        columns: [col.id(), col.int('metric_id', { isNullable: false }), col.int('field_id', { isNullable: false })],
        foreignKeys: [fk('metric_id', 'metric'), fk('field_id', 'metabase_field')],
        uniques: [{ name: 'uq_metric_important_field', columnNames: ['metric_id', 'field_id'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of ['metric_important_field', 'metric', 'segment']) await qr.dropTable(t);
  }
}
