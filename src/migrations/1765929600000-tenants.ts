import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { col, fk } from './columns';

/**
 * Tenants: the organisations of an embedding customer's users, kept apart from the instance's own people. A tenant
 * has its collection (where its users curate) and a group of its own (`group_id`), through which that collection is
 * granted; users name their tenant by `tenant_id` (null: an internal user).
 */
export class Tenants1765929600000 implements MigrationInterface {
  name = 'Tenants1765929600000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'tenant',
        columns: [
          col.id(),
          col.varchar('name', 255, { isNullable: false, isUnique: true }),
          col.varchar('slug', 255, { isNullable: false, isUnique: true }),
          col.bool('is_active', true),
          col.text('attributes'),
          col.int('tenant_collection_id'),
          col.int('group_id'),
          col.timestamp(qr, 'created_at', { now: true }),
        ],
        foreignKeys: [fk('tenant_collection_id', 'collection', 'SET NULL'), fk('group_id', 'permissions_group', 'SET NULL')],
      }),
    );
    // No foreign key: on SQLite one would rebuild core_user, which half the schema points at; tenants are never deleted.
    await qr.addColumn('core_user', new TableColumn(col.int('tenant_id')));
    await qr.createIndex('core_user', new TableIndex({ name: 'idx_core_user_tenant', columnNames: ['tenant_id'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropIndex('core_user', 'idx_core_user_tenant');
    await qr.dropColumn('core_user', 'tenant_id');
    await qr.query(`DELETE FROM permissions_group WHERE magic_group_type = 'all-external-users'`);
    await qr.dropTable('tenant');
  }
}
