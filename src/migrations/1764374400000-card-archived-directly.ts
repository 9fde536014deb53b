import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './columns';

/**
 * Cards remember whether they were archived on their own: unarchiving a collection then restores only the cards
 * that were archived with it, as collections already do for their subtree.
 */
export class CardArchivedDirectly1764374400000 implements MigrationInterface {
  name = 'CardArchivedDirectly1764374400000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn('report_card', new TableColumn(col.bool('archived_directly', false)));
    // Cards archived so far were archived on their own unless their collection is archived too.
    await qr.query(
      `UPDATE report_card SET archived_directly = ${qr.connection.options.type === 'postgres' ? 'true' : '1'}
       WHERE archived = ${qr.connection.options.type === 'postgres' ? 'true' : '1'}
         AND (collection_id IS NULL OR collection_id NOT IN (
           SELECT id FROM collection WHERE archived = ${qr.connection.options.type === 'postgres' ? 'true' : '1'}))`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('report_card', 'archived_directly');
  }
}
