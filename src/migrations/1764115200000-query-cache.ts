import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './columns';

/** Cached query results, shared by every instance on the app DB: one row per cache key, until it expires. */
export class QueryCache1764115200000 implements MigrationInterface {
  name = 'QueryCache1764115200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'query_cache',
        columns: [
          col.varchar('query_hash', 64, { isPrimary: true, isNullable: false }),
          // The result as gzipped JSON, base64: text works the same on SQLite and Postgres.
          col.text('results', { isNullable: false }),
          col.int('size_bytes', { isNullable: false }),
          col.timestamp(qr, 'updated_at', { isNullable: false }),
          col.timestamp(qr, 'expires_at', { isNullable: false }),
        ],
        indices: [{ name: 'idx_query_cache_expires', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('query_cache');
  }
}
