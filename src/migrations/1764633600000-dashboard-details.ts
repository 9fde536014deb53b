import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './columns';

/**
 * The dashboard columns that PUT /api/dashboard/:id takes and GET answers but that had no place yet: the documentation
 * texts `points_of_interest` and `caveats`, `position`, and `show_in_getting_started`, as Metabase's `report_dashboard` has them.
 */
export class DashboardDetails1764633600000 implements MigrationInterface {
  name = 'DashboardDetails1764633600000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumns('report_dashboard', [
      new TableColumn(col.text('points_of_interest')),
      new TableColumn(col.text('caveats')),
      new TableColumn(col.int('position')),
      new TableColumn(col.bool('show_in_getting_started', false)),
    ]);
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const c of ['show_in_getting_started', 'position', 'caveats', 'points_of_interest']) await qr.dropColumn('report_dashboard', c);
  }
}
