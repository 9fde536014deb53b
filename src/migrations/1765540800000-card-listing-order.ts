import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * GET /api/card/ lists cards by name: with an index in that order the app database produces the listing a card at a
 * time, in order, instead of building every card's JSON before sorting it (the listing is streamed as it comes).
 */
export class CardListingOrder1765540800000 implements MigrationInterface {
  name = 'CardListingOrder1765540800000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createIndex('report_card', new TableIndex({ name: 'idx_report_card_listing', columnNames: ['archived', 'name', 'id'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropIndex('report_card', 'idx_report_card_listing');
  }
}
