import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * A collection's items page reads where every collection below it sits and which kinds of card each holds: thousands of
 * rows under a top-level collection of a large instance. With every column read in the index the database answers from
 * the index alone instead of fetching each row. Each new index starts with the columns of the one it replaces.
 */
export class CoveringListingIndexes1766188800000 implements MigrationInterface {
  name = 'CoveringListingIndexes1766188800000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createIndex(
      'collection',
      new TableIndex({
        name: 'idx_collection_location_tree',
        columnNames: ['location', 'namespace', 'archived', 'personal_owner_id', 'id'],
      }),
    );
    await qr.dropIndex('collection', 'idx_collection_location');
    await qr.createIndex(
      'report_card',
      new TableIndex({ name: 'idx_report_card_collection_type', columnNames: ['collection_id', 'archived', 'type'] }),
    );
    await qr.dropIndex('report_card', 'idx_report_card_collection');
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.createIndex('report_card', new TableIndex({ name: 'idx_report_card_collection', columnNames: ['collection_id', 'archived'] }));
    await qr.dropIndex('report_card', 'idx_report_card_collection_type');
    await qr.createIndex('collection', new TableIndex({ name: 'idx_collection_location', columnNames: ['location'] }));
    await qr.dropIndex('collection', 'idx_collection_location_tree');
  }
}
