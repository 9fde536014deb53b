import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { col, fk, isPostgres } from './columns';

/**
 * Collections (with their permission grants), cards, revisions, bookmarks and the search index.
 *
 * A collection's place in the tree is its `location`: the ids of its ancestors as `/1/2/` (`/` at the top). A subtree
 * is then one index range scan (`location >= '/1/2/' AND location < '/1/20'`), which needs byte order: on Postgres
 * the column uses the "C" collation, since a language collation would order `/` and digits by other rules.
 */
export class Content1764288000000 implements MigrationInterface {
  name = 'Content1764288000000';

  async up(qr: QueryRunner): Promise<void> {
    const location: TableColumnOptions = {
      ...col.varchar('location', 1024, { isNullable: false, default: "'/'" }),
      ...(isPostgres(qr) ? { collation: 'C' } : {}),
    };
    await qr.createTable(
      new Table({
        name: 'collection',
        columns: [
          col.id(),
          col.varchar('name', 254, { isNullable: false }),
          col.text('description'),
          location,
          col.int('personal_owner_id', { isUnique: true }),
          col.varchar('namespace', 254),
          col.varchar('authority_level', 32),
          col.varchar('slug', 510),
          col.varchar('entity_id', 21),
          col.bool('archived', false),
          // Set on the collection an archive was asked for: unarchiving it restores the subtree archived with it.
          col.bool('archived_directly', false),
          col.timestamp(qr, 'created_at', { now: true }),
        ],
        foreignKeys: [fk('personal_owner_id', 'core_user')],
        indices: [
          { name: 'idx_collection_location', columnNames: ['location'] },
          { name: 'idx_collection_namespace', columnNames: ['namespace', 'archived'] },
        ],
      }),
    );
    // collection_id null: the Root collection of `namespace` (null: the default namespace).
    await qr.createTable(
      new Table({
        name: 'collection_permission',
        columns: [
          col.id(),
          col.int('group_id', { isNullable: false }),
          col.int('collection_id'),
          col.varchar('namespace', 254),
          col.varchar('perm', 8, { isNullable: false }),
        ],
        foreignKeys: [fk('group_id', 'permissions_group'), fk('collection_id', 'collection')],
        indices: [
          { name: 'idx_collection_permission_group', columnNames: ['group_id', 'collection_id'] },
          { name: 'idx_collection_permission_collection', columnNames: ['collection_id'] },
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'collection_permission_revision',
        columns: [col.id(), col.text('before'), col.text('after'), col.int('user_id'), col.timestamp(qr, 'created_at', { now: true })],
        foreignKeys: [fk('user_id', 'core_user', 'SET NULL')],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'report_card',
        columns: [
          col.id(),
          col.varchar('name', 254, { isNullable: false }),
          col.text('description'),
          col.varchar('display', 254, { isNullable: false }),
          col.text('dataset_query', { isNullable: false }),
          col.text('visualization_settings', { isNullable: false }),
          col.text('parameters'),
          col.text('parameter_mappings'),
          col.text('result_metadata'),
          col.varchar('type', 16, { isNullable: false, default: "'question'" }),
          col.varchar('query_type', 16),
          col.int('database_id'),
          col.int('table_id'),
          col.int('source_card_id'),
          col.int('collection_id'),
          col.int('collection_position'),
          col.int('cache_ttl'),
          col.bool('archived', false),
          col.bool('collection_preview', true),
          col.bool('enable_embedding', false),
          col.text('embedding_params'),
          col.varchar('public_uuid', 36, { isUnique: true }),
          col.int('made_public_by_id'),
          col.int('creator_id', { isNullable: false }),
          col.varchar('entity_id', 21),
          col.int('view_count', { isNullable: false, default: 0 }),
          col.timestamp(qr, 'last_used_at'),
          col.timestamp(qr, 'created_at', { now: true }),
          col.timestamp(qr, 'updated_at', { now: true }),
        ],
        foreignKeys: [
          fk('collection_id', 'collection', 'SET NULL'),
          fk('creator_id', 'core_user', 'RESTRICT'),
          fk('made_public_by_id', 'core_user', 'SET NULL'),
          fk('database_id', 'metabase_database', 'SET NULL'),
        ],
        indices: [
          { name: 'idx_report_card_collection', columnNames: ['collection_id', 'archived'] },
          { name: 'idx_report_card_creator', columnNames: ['creator_id'] },
          { name: 'idx_report_card_database', columnNames: ['database_id'] },
          { name: 'idx_report_card_table', columnNames: ['table_id'] },
          { name: 'idx_report_card_source_card', columnNames: ['source_card_id'] },
        ],
      }),
    );
    // What a card's query refers to (kind `card`, `segment`, `metric`, `table`), rewritten on every save: the
    // `using_*` filters of GET /api/card/ and the checks before a referenced object goes away read it.
    await qr.createTable(
      new Table({
        name: 'card_reference',
        columns: [
          col.int('card_id', { isPrimary: true, isNullable: false }),
          col.varchar('kind', 16, { isPrimary: true, isNullable: false }),
          col.int('ref_id', { isPrimary: true, isNullable: false }),
        ],
        foreignKeys: [fk('card_id', 'report_card')],
        indices: [{ name: 'idx_card_reference_target', columnNames: ['kind', 'ref_id'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'revision',
        columns: [
          col.id(),
          col.varchar('model', 32, { isNullable: false }),
          col.int('model_id', { isNullable: false }),
          col.int('user_id'),
          col.text('object', { isNullable: false }),
          col.text('description'),
          col.text('message'),
          col.bool('is_creation', false),
          col.bool('is_reversion', false),
          col.bool('most_recent', false),
          col.timestamp(qr, 'timestamp', { now: true }),
        ],
        foreignKeys: [fk('user_id', 'core_user', 'SET NULL')],
        indices: [{ name: 'idx_revision_model', columnNames: ['model', 'model_id', 'id'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'bookmark',
        columns: [
          col.id(),
          col.int('user_id', { isNullable: false }),
          col.varchar('model', 16, { isNullable: false }),
          col.int('model_id', { isNullable: false }),
          col.int('ordering'),
          col.timestamp(qr, 'created_at', { now: true }),
        ],
        foreignKeys: [fk('user_id', 'core_user')],
        uniques: [{ name: 'uq_bookmark_user_model', columnNames: ['user_id', 'model', 'model_id'] }],
      }),
    );
    // Every lower-cased word of a searchable object's name (and description): a word-prefix search is one index
    // range scan on `term`, on both app databases, however many objects there are.
    await qr.createTable(
      new Table({
        name: 'search_term',
        columns: [
          col.varchar('model', 16, { isPrimary: true, isNullable: false }),
          col.int('model_id', { isPrimary: true, isNullable: false }),
          { ...col.varchar('term', 254, { isPrimary: true, isNullable: false }), ...(isPostgres(qr) ? { collation: 'C' } : {}) },
          col.bool('in_name', true),
        ],
        indices: [{ name: 'idx_search_term_term', columnNames: ['term', 'model'] }],
      }),
    );

    // Metabase's defaults on a fresh instance: All Users curate the Root collection and the snippet Root.
    await qr.query(
      `INSERT INTO collection_permission (group_id, collection_id, namespace, perm) ` +
        `VALUES (1, NULL, NULL, 'write'), (1, NULL, 'snippet', 'write')`,
    );
    // Existing users get their personal collection.
    const users: Array<{ id: number; email: string; first_name: string | null; last_name: string | null }> = await qr.query(
      'SELECT id, email, first_name, last_name FROM core_user ORDER BY id',
    );
    for (const u of users) {
      await qr.query(
        isPostgres(qr)
          ? 'INSERT INTO collection (name, location, personal_owner_id, slug) VALUES ($1, $2, $3, $4)'
          : 'INSERT INTO collection (name, location, personal_owner_id, slug) VALUES (?, ?, ?, ?)',
        [personalCollectionName(u), '/', u.id, null],
      );
    }
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of [
      'search_term',
      'bookmark',
      'revision',
      'card_reference',
      'report_card',
      'collection_permission_revision',
      'collection_permission',
      'collection',
    ]) {
      await qr.dropTable(t);
    }
  }
}

/** "Ada Admin's Personal Collection", as Metabase names them (the email when the user has no name). */
export function personalCollectionName(u: { email: string; first_name: string | null; last_name: string | null }): string {
  const name = [u.first_name, u.last_name].filter((s) => s && s.trim()).join(' ') || u.email;
  return `${name}'s Personal Collection`;
}
