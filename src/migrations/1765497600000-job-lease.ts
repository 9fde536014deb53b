import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './columns';

/**
 * Leases for jobs that must run on one instance at a time (see JobLeases): the job's name, the instance holding
 * it and when the lease runs out (epoch milliseconds), after which another instance may take it over.
 */
export class JobLease1765497600000 implements MigrationInterface {
  name = 'JobLease1765497600000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'job_lease',
        columns: [
          col.varchar('name', 128, { isPrimary: true, isNullable: false }),
          col.varchar('holder', 128, { isNullable: false }),
          col.bigint('expires_at', { isNullable: false }),
        ],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('job_lease');
  }
}
