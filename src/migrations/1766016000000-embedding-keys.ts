import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './columns';

/**
 * Named signing keys of static embedding, besides `embedding-secret-key`. The secret is text, not a fixed width: it
 * is stored sealed when ENCRYPTION_KEY is set, which makes it longer than the key itself.
 */
export class EmbeddingKeys1766016000000 implements MigrationInterface {
  name = 'EmbeddingKeys1766016000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'embedding_key',
        columns: [
          col.id(),
          col.varchar('kid', 64, { isNullable: false, isUnique: true }),
          col.varchar('name', 254, { isNullable: false }),
          col.text('secret', { isNullable: false }),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'revoked_at'),
        ],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('embedding_key');
  }
}
