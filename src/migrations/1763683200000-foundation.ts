import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { col, fk } from './columns';

/** Accounts, groups, sessions, API keys, settings and login throttling. */
export class Foundation1763683200000 implements MigrationInterface {
  name = 'Foundation1763683200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'core_user',
        columns: [
          col.id(),
          col.varchar('email', 254, { isNullable: false, isUnique: true }),
          col.varchar('first_name', 254),
          col.varchar('last_name', 254),
          col.varchar('password_hash', 512),
          col.bool('is_superuser', false),
          col.bool('is_active', true),
          col.bool('is_qbnewb', true),
          col.varchar('locale', 5),
          col.text('login_attributes'),
          col.varchar('sso_source', 32),
          col.varchar('type', 16, { isNullable: false, default: "'personal'" }),
          col.timestamp(qr, 'date_joined', { now: true }),
          col.timestamp(qr, 'last_login'),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'permissions_group',
        columns: [
          col.id(),
          col.varchar('name', 255, { isNullable: false, isUnique: true }),
          col.varchar('magic_group_type', 32, { isUnique: true }),
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'permissions_group_membership',
        columns: [
          col.id(),
          col.int('user_id', { isNullable: false }),
          col.int('group_id', { isNullable: false }),
          col.bool('is_group_manager', false),
        ],
        foreignKeys: [fk('user_id', 'core_user'), fk('group_id', 'permissions_group')],
        uniques: [{ name: 'uq_membership_user_group', columnNames: ['user_id', 'group_id'] }],
        indices: [{ name: 'idx_membership_group', columnNames: ['group_id'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'core_session',
        columns: [
          col.varchar('key_hash', 64, { isPrimary: true, isNullable: false }),
          col.int('user_id', { isNullable: false }),
          col.timestamp(qr, 'created_at', { now: true }),
        ],
        foreignKeys: [fk('user_id', 'core_user')],
        indices: [{ name: 'idx_session_user', columnNames: ['user_id'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'login_failure',
        columns: [
          col.id(),
          col.varchar('username', 254, { isNullable: false }),
          col.varchar('ip', 64, { isNullable: false }),
          col.timestamp(qr, 'created_at', { now: true }),
        ],
      }),
    );
    await qr.createIndex('login_failure', new TableIndex({ name: 'idx_login_failure_username', columnNames: ['username', 'created_at'] }));
    await qr.createIndex('login_failure', new TableIndex({ name: 'idx_login_failure_ip', columnNames: ['ip', 'created_at'] }));
    await qr.createTable(
      new Table({
        name: 'api_key',
        columns: [
          col.id(),
          col.int('user_id', { isNullable: false }),
          col.varchar('name', 254, { isNullable: false, isUnique: true }),
          col.varchar('key_hash', 64, { isNullable: false, isUnique: true }),
          col.varchar('key_prefix', 16, { isNullable: false }),
          col.int('creator_id', { isNullable: false }),
          col.int('updated_by_id', { isNullable: false }),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [fk('user_id', 'core_user'), fk('creator_id', 'core_user', 'RESTRICT'), fk('updated_by_id', 'core_user', 'RESTRICT')],
      }),
    );
    await qr.createTable(
      new Table({ name: 'setting', columns: [col.varchar('key', 254, { isPrimary: true, isNullable: false }), col.text('value')] }),
    );
    await qr.createTable(
      new Table({
        name: 'product_feedback',
        columns: [
          col.id(),
          col.int('user_id'),
          col.varchar('source', 254, { isNullable: false }),
          col.text('comments'),
          col.varchar('email', 254),
          col.timestamp(qr, 'created_at', { now: true }),
        ],
        foreignKeys: [fk('user_id', 'core_user', 'SET NULL')],
      }),
    );
    // The built-in groups keep ids 1 and 2, as clients of Metabase's API expect.
    await qr.query(
      `INSERT INTO permissions_group (id, name, magic_group_type) VALUES ` +
        `(1, 'All Users', 'all-internal-users'), (2, 'Administrators', 'admin')`,
    );
    if (qr.connection.options.type === 'postgres') {
      await qr.query(`SELECT setval(pg_get_serial_sequence('permissions_group', 'id'), 2)`);
    }
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of [
      'product_feedback',
      'setting',
      'api_key',
      'login_failure',
      'core_session',
      'permissions_group_membership',
      'permissions_group',
      'core_user',
    ]) {
      await qr.dropTable(t);
    }
  }
}
