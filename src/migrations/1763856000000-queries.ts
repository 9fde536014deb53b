import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/** Native query snippets, and the log of query executions (timings, row counts, errors). */
export class Queries1763856000000 implements MigrationInterface {
  name = 'Queries1763856000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'native_query_snippet',
        columns: [
          col.id(),
          col.varchar('name', 254, { isNullable: false, isUnique: true }),
          col.text('description'),
          col.text('content', { isNullable: false }),
          col.int('creator_id', { isNullable: false }),
          col.int('collection_id'),
          col.bool('archived', false),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [fk('creator_id', 'core_user', 'RESTRICT')],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'query_execution',
        columns: [
          col.id(),
          col.varchar('hash', 64, { isNullable: false }),
          col.timestamp(qr, 'started_at', { isNullable: false }),
          col.int('running_time', { isNullable: false }),
          col.int('result_rows', { isNullable: false }),
          col.bool('native', false),
          col.varchar('context', 32, { isNullable: false }),
          col.int('executor_id'),
          col.int('card_id'),
          col.int('dashboard_id'),
          col.int('database_id'),
          col.text('error'),
          col.bool('cache_hit', false),
        ],
        foreignKeys: [fk('executor_id', 'core_user', 'SET NULL'), fk('database_id', 'metabase_database', 'SET NULL')],
        indices: [
          { name: 'idx_query_execution_hash', columnNames: ['hash', 'started_at'] },
          { name: 'idx_query_execution_started', columnNames: ['started_at'] },
          { name: 'idx_query_execution_card', columnNames: ['card_id', 'started_at'] },
        ],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('query_execution');
    await qr.dropTable('native_query_snippet');
  }
}
