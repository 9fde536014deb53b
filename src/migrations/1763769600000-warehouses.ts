import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/** Warehouses and their metadata: databases, tables, fields, field values, dimensions, permissions, sync runs. */
export class Warehouses1763769600000 implements MigrationInterface {
  name = 'Warehouses1763769600000';

  async up(qr: QueryRunner): Promise<void> {
    const stamps = [col.timestamp(qr, 'created_at', { now: true }), col.timestamp(qr, 'updated_at', { now: true })];
    await qr.createTable(
      new Table({
        name: 'metabase_database',
        columns: [
          col.id(),
          col.varchar('name', 254, { isNullable: false }),
          col.varchar('engine', 32, { isNullable: false }),
          col.text('details', { isNullable: false }),
          col.text('description'),
          col.bool('is_sample', false),
          col.bool('is_full_sync', true),
          col.bool('auto_run_queries', true),
          col.varchar('initial_sync_status', 16, { isNullable: false, default: "'incomplete'" }),
          col.int('metadata_sync_interval_minutes', { isNullable: false, default: 60 }),
          col.int('field_values_interval_minutes', { isNullable: false, default: 1440 }),
          col.timestamp(qr, 'last_metadata_sync_at'),
          col.timestamp(qr, 'last_field_values_at'),
          col.varchar('sync_lease_holder', 64),
          col.timestamp(qr, 'sync_lease_until'),
          col.int('cache_ttl'),
          col.varchar('timezone', 64),
          col.text('settings'),
          col.text('points_of_interest'),
          col.text('caveats'),
          col.int('creator_id'),
          ...stamps,
        ],
        foreignKeys: [fk('creator_id', 'core_user', 'SET NULL')],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'database_permission',
        columns: [
          col.id(),
          col.int('group_id', { isNullable: false }),
          col.int('db_id', { isNullable: false }),
          col.varchar('data', 16, { isNullable: false }),
          col.varchar('native', 16, { isNullable: false }),
        ],
        foreignKeys: [fk('group_id', 'permissions_group'), fk('db_id', 'metabase_database')],
        uniques: [{ name: 'uq_database_permission', columnNames: ['group_id', 'db_id'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'metabase_table',
        columns: [
          col.id(),
          col.int('db_id', { isNullable: false }),
          col.varchar('schema', 254),
          col.varchar('name', 254, { isNullable: false }),
          col.varchar('display_name', 254, { isNullable: false }),
          col.text('description'),
          col.varchar('entity_type', 64),
          col.varchar('visibility_type', 16),
          col.varchar('field_order', 16, { isNullable: false, default: "'database'" }),
          col.bool('active', true),
          col.bool('is_view', false),
          col.bool('show_in_getting_started', false),
          col.text('points_of_interest'),
          col.text('caveats'),
          col.bigint('estimated_row_count'),
          col.varchar('initial_sync_status', 16, { isNullable: false, default: "'complete'" }),
          col.text('user_edited'),
          ...stamps,
        ],
        foreignKeys: [fk('db_id', 'metabase_database')],
        indices: [{ name: 'idx_table_db', columnNames: ['db_id', 'schema', 'name'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'metabase_field',
        columns: [
          col.id(),
          col.int('table_id', { isNullable: false }),
          col.varchar('name', 254, { isNullable: false }),
          col.varchar('display_name', 254, { isNullable: false }),
          col.text('description'),
          col.varchar('database_type', 254, { isNullable: false }),
          col.varchar('base_type', 64, { isNullable: false }),
          col.varchar('effective_type', 64),
          col.varchar('semantic_type', 64),
          col.varchar('coercion_strategy', 64),
          col.int('fk_target_field_id'),
          col.text('nfc_path'),
          col.bool('active', true),
          col.int('position', { isNullable: false, default: 0 }),
          col.int('database_position', { isNullable: false, default: 0 }),
          col.int('custom_position', { isNullable: false, default: 0 }),
          col.bool('database_is_pk', false),
          col.bool('database_required', false),
          col.varchar('visibility_type', 16, { isNullable: false, default: "'normal'" }),
          col.varchar('has_field_values', 16, { isNullable: false, default: "'none'" }),
          col.text('settings'),
          col.bool('json_unfolding', false, { isNullable: true, default: undefined }),
          col.text('fingerprint'),
          col.text('points_of_interest'),
          col.text('caveats'),
          col.bool('preview_display', true),
          col.text('user_edited'),
          col.timestamp(qr, 'last_analyzed'),
          ...stamps,
        ],
        foreignKeys: [fk('table_id', 'metabase_table'), fk('fk_target_field_id', 'metabase_field', 'SET NULL')],
        indices: [{ name: 'idx_field_table', columnNames: ['table_id', 'name'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'metabase_fieldvalues',
        columns: [
          col.id(),
          col.int('field_id', { isNullable: false, isUnique: true }),
          col.text('values', { isNullable: false }),
          col.text('human_readable_values'),
          col.bool('has_more_values', false),
          ...stamps,
        ],
        foreignKeys: [fk('field_id', 'metabase_field')],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'dimension',
        columns: [
          col.id(),
          col.int('field_id', { isNullable: false, isUnique: true }),
          col.varchar('name', 254, { isNullable: false }),
          col.varchar('type', 16, { isNullable: false }),
          col.int('human_readable_field_id'),
          ...stamps,
        ],
        foreignKeys: [fk('field_id', 'metabase_field'), fk('human_readable_field_id', 'metabase_field', 'SET NULL')],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'sync_run',
        columns: [
          col.id(),
          col.int('db_id', { isNullable: false }),
          col.varchar('kind', 16, { isNullable: false }),
          col.varchar('status', 16, { isNullable: false }),
          col.varchar('instance', 64, { isNullable: false }),
          col.timestamp(qr, 'started_at', { isNullable: false }),
          col.timestamp(qr, 'ended_at'),
          col.text('error'),
          col.text('summary'),
        ],
        foreignKeys: [fk('db_id', 'metabase_database')],
        indices: [{ name: 'idx_sync_run_db', columnNames: ['db_id', 'started_at'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of [
      'sync_run',
      'dimension',
      'metabase_fieldvalues',
      'metabase_field',
      'metabase_table',
      'database_permission',
      'metabase_database',
    ]) {
      await qr.dropTable(t);
    }
  }
}
