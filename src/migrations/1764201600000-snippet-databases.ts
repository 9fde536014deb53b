import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/** The databases each snippet has run on: editing a snippet changes the SQL of every one of them. */
export class SnippetDatabases1764201600000 implements MigrationInterface {
  name = 'SnippetDatabases1764201600000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'native_query_snippet_database',
        columns: [
          col.int('snippet_id', { isPrimary: true, isNullable: false }),
          col.int('database_id', { isPrimary: true, isNullable: false }),
        ],
        foreignKeys: [fk('snippet_id', 'native_query_snippet'), fk('database_id', 'metabase_database')],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('native_query_snippet_database');
  }
}
