import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from './columns';

/**
 * Timelines and their events, as Metabase names them (`timeline`, `timeline_event`). A timeline lives in a collection
 * (null: the Root) and goes with it; an event belongs to one timeline and goes with it (DELETE /api/timeline/:id
 * cascades). `timestamp` is an instant; `timezone` is the zone the user entered it in, kept for display.
 */
export class Timelines1764806400000 implements MigrationInterface {
  name = 'Timelines1764806400000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'timeline',
        columns: [
          col.id(),
          col.varchar('name', 255, { isNullable: false }),
          col.text('description'),
          col.varchar('icon', 128, { isNullable: false, default: "'star'" }),
          col.int('collection_id'),
          col.bool('archived', false),
          col.bool('default', false),
          col.int('creator_id', { isNullable: false }),
          col.varchar('entity_id', 21),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [fk('collection_id', 'collection'), fk('creator_id', 'core_user', 'RESTRICT')],
        indices: [{ name: 'idx_timeline_collection', columnNames: ['collection_id', 'archived'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'timeline_event',
        columns: [
          col.id(),
          col.int('timeline_id', { isNullable: false }),
          col.varchar('name', 255, { isNullable: false }),
          col.text('description'),
          col.timestamp(qr, 'timestamp', { isNullable: false }),
          col.bool('time_matters', false),
          col.varchar('timezone', 255, { isNullable: false }),
          col.varchar('icon', 128, { isNullable: false, default: "'star'" }),
          col.bool('archived', false),
          col.int('creator_id', { isNullable: false }),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [fk('timeline_id', 'timeline'), fk('creator_id', 'core_user', 'RESTRICT')],
        indices: [{ name: 'idx_timeline_event_timeline', columnNames: ['timeline_id', 'timestamp'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('timeline_event');
    await qr.dropTable('timeline');
  }
}
