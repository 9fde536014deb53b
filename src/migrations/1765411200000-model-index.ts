import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/**
 * Model indexes (v0.50): a model's rows indexed by primary key (`pk_ref`) with a name column (`value_ref`), both field
 * refs as JSON text, and the indexed names (`model_index_value`). The automatic dashboards read them for the detail
 * dashboard of one row (GET /api/automagic-dashboards/model_index/:id/primary_key/:pk).
 */
export class ModelIndex1765411200000 implements MigrationInterface {
  name = 'ModelIndex1765411200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'model_index',
        columns: [
          col.id(),
          col.int('model_id', { isNullable: false }),
          col.text('pk_ref', { isNullable: false }),
          col.text('value_ref'),
          col.varchar('schedule', 64),
          col.varchar('state', 32),
          col.text('error'),
          col.int('creator_id'),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'indexed_at'),
        ],
        foreignKeys: [fk('model_id', 'report_card')],
        indices: [{ name: 'idx_model_index_model', columnNames: ['model_id'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'model_index_value',
        columns: [
          col.int('model_index_id', { isNullable: false, isPrimary: true }),
          col.bigint('model_pk', { isNullable: false, isPrimary: true }),
          col.text('name'),
        ],
        foreignKeys: [fk('model_index_id', 'model_index')],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of ['model_index_value', 'model_index']) await qr.dropTable(t);
  }
}
