import { and, inList, join, or, raw, sql, TRUE, type Sql } from '../../common/database/sql';
import { likePrefix, prefixRange } from './search-range';

/** What the caller asked for, resolved to SQL-ready pieces by the service. */
export interface SearchFilter {
  /** The words of `q` (lower case); empty lists everything. */
  words: string[];
  archived: boolean;
  createdBy: number[] | null;
  tableDbId: number | null;
  /** Databases whose data the caller may read; 'all' for admins. */
  readableDbs: number[] | 'all';
  /** Where the caller may view tables (view-data): whole databases, and single tables of the others. */
  viewableTables: { dbs: number[] | 'all'; tables: number[] };
}

/** The columns every branch answers, in this order, so that the branches form one UNION ALL. */
export const SEARCH_COLUMNS =
  'model, id, name, description, archived, collection_id, database_id, table_id, creator_id, updated_at, display, created_at,' +
  ' collection_position, in_name';

/**
 * One kind of object. Its SELECT answers SEARCH_COLUMNS (`in_name`: 1 when every word of q is in the name) and,
 * when `collectionGoverned`, then `acc_id`: the collection whose grants decide access (null: Root). The statement
 * applies the caller's collection access once to all governed branches together, so its grant lookup runs once.
 */
export interface SearchBranch {
  /** The API models this branch can answer. */
  readonly models: readonly string[];
  readonly collectionGoverned: boolean;
  /** One SELECT, or null when the filter rules this kind out. `hit` is the CTE of word-index matches when there are words. */
  sql(f: SearchFilter, models: ReadonlySet<string>): Sql | null;
}

/** Objects whose words are in `search_term` under `model` (their owners index them when they save). */
export const INDEXED_MODELS = ['card', 'collection', 'dashboard'] as const;

/** At most this many words of `q` are used: each is one index range scan and one join. */
export const MAX_WORDS = 6;

/**
 * The CTE `hit(model, model_id, in_name)`: indexed objects with every word of q as the prefix of a word of their name
 * or description. Each word is one range scan of the term index giving each object at most once; an object found
 * for every word is a hit (a count, not joins: linear in the matches whatever the planner estimates).
 */
export function hitCte(words: string[]): Sql {
  const perWord = words.map((w) => {
    const [lo, hi] = prefixRange(w);
    const range = hi === null ? sql`term >= ${lo}` : sql`term >= ${lo} AND term < ${hi}`;
    return sql`SELECT model, model_id, MAX(CASE WHEN in_name THEN 1 ELSE 0 END) AS n FROM search_term
      WHERE ${range} GROUP BY model, model_id`;
  });
  return sql`hit AS (SELECT model, model_id, MIN(n) AS in_name FROM (${join(perWord, ' UNION ALL ')}) w
    GROUP BY model, model_id HAVING COUNT(*) = ${raw(String(words.length))})`;
}

/** For the few objects not in the word index: every word of q starts a word of `text` (split on spaces, `_`, `-`, `.`). */
function likeWords(words: string[], text: string): Sql {
  const norm = raw(`(' ' || REPLACE(REPLACE(REPLACE(LOWER(${text}), '_', ' '), '-', ' '), '.', ' '))`);
  return and(...words.map((w) => sql`${norm} LIKE ${`% ${likePrefix(w)}`} ESCAPE '\\'`));
}

function dbCondition(column: string, f: SearchFilter): Sql {
  return f.readableDbs === 'all' ? TRUE : inList(raw(column), f.readableDbs);
}

/** The SELECT's rank column: from the word index when there are words. */
const inNameColumn = (f: SearchFilter) => raw(f.words.length ? 'h.in_name' : '1');

const CARD_TYPES: Record<string, string> = { card: 'question', dataset: 'model', metric: 'metric' };

/** `o.creator_id` among the creators asked for (no condition without). */
const createdBy = (f: SearchFilter) => (f.createdBy ? inList(raw('o.creator_id'), f.createdBy) : undefined);

export const cardBranch: SearchBranch = {
  models: ['card', 'dataset', 'metric'],
  collectionGoverned: true,
  sql(f, models) {
    const types = this.models.filter((m) => models.has(m)).map((m) => CARD_TYPES[m]);
    if (types.length === 0) return null;
    const where = and(
      sql`o.archived = ${f.archived}`,
      inList(raw('o.type'), types),
      createdBy(f),
      f.tableDbId !== null && sql`o.database_id = ${f.tableDbId}`,
    );
    const from = raw(f.words.length ? "hit h JOIN report_card o ON h.model = 'card' AND o.id = h.model_id" : 'report_card o');
    return sql`SELECT CASE o.type WHEN 'model' THEN 'dataset' WHEN 'metric' THEN 'metric' ELSE 'card' END AS model,
      o.id AS id, o.name AS name,
      o.description AS description, o.archived AS archived, o.collection_id AS collection_id, o.database_id AS database_id,
      o.table_id AS table_id, o.creator_id AS creator_id, o.updated_at AS updated_at, o.display AS display, o.created_at AS created_at,
      o.collection_position AS collection_position,
      ${inNameColumn(f)} AS in_name, o.collection_id AS acc_id
      FROM ${from} WHERE ${where}`;
  },
};

export const collectionBranch: SearchBranch = {
  models: ['collection'],
  collectionGoverned: true,
  sql(f, models) {
    if (!models.has('collection') || f.createdBy || f.tableDbId !== null) return null;
    const from = raw(f.words.length ? "hit h JOIN collection o ON h.model = 'collection' AND o.id = h.model_id" : 'collection o');
    return sql`SELECT 'collection' AS model, o.id AS id, o.name AS name, o.description AS description, o.archived AS archived,
      o.id AS collection_id, NULL AS database_id, NULL AS table_id, NULL AS creator_id, o.created_at AS updated_at, NULL AS display,
      o.created_at AS created_at, NULL AS collection_position,
      ${inNameColumn(f)} AS in_name, o.id AS acc_id
      FROM ${from} WHERE o.archived = ${f.archived} AND o.namespace IS NULL`;
  },
};

export const tableBranch: SearchBranch = {
  models: ['table'],
  collectionGoverned: false,
  sql(f, models) {
    if (!models.has('table') || f.archived || f.createdBy) return null;
    const inName = likeWords(f.words, "o.display_name || ' ' || o.name");
    const where = and(
      raw('o.active = TRUE'),
      raw('o.visibility_type IS NULL'),
      dbCondition('o.db_id', f),
      f.viewableTables.dbs !== 'all' && or(inList(raw('o.db_id'), f.viewableTables.dbs), inList(raw('o.id'), f.viewableTables.tables)),
      f.tableDbId !== null && sql`o.db_id = ${f.tableDbId}`,
      sql`(${inName} OR ${likeWords(f.words, "o.display_name || ' ' || o.name || ' ' || COALESCE(o.description, '')")})`,
    );
    return sql`SELECT 'table' AS model, o.id AS id, o.display_name AS name, o.description AS description, FALSE AS archived,
      NULL AS collection_id, o.db_id AS database_id, o.id AS table_id, NULL AS creator_id, o.updated_at AS updated_at, NULL AS display,
      o.created_at AS created_at, NULL AS collection_position,
      CASE WHEN ${inName} THEN 1 ELSE 0 END AS in_name
      FROM metabase_table o WHERE ${where}`;
  },
};

export const databaseBranch: SearchBranch = {
  models: ['database'],
  collectionGoverned: false,
  sql(f, models) {
    if (!models.has('database') || f.archived || f.createdBy || f.tableDbId !== null) return null;
    const inName = likeWords(f.words, 'o.name');
    const where = and(dbCondition('o.id', f), sql`(${inName} OR ${likeWords(f.words, "o.name || ' ' || COALESCE(o.description, '')")})`);
    return sql`SELECT 'database' AS model, o.id AS id, o.name AS name, o.description AS description, FALSE AS archived,
      NULL AS collection_id,
      o.id AS database_id, NULL AS table_id, NULL AS creator_id, o.updated_at AS updated_at, NULL AS display, o.created_at AS created_at,
      NULL AS collection_position,
      CASE WHEN ${inName} THEN 1 ELSE 0 END AS in_name
      FROM metabase_database o WHERE ${where}`;
  },
};

/** Snippets are readable by every user: they are SQL text, not data. */
export const snippetBranch: SearchBranch = {
  models: ['snippet'],
  collectionGoverned: false,
  sql(f, models) {
    if (!models.has('snippet') || f.tableDbId !== null) return null;
    const inName = likeWords(f.words, 'o.name');
    const where = and(
      sql`o.archived = ${f.archived}`,
      sql`(${inName} OR ${likeWords(f.words, "o.name || ' ' || COALESCE(o.description, '')")})`,
      createdBy(f),
    );
    return sql`SELECT 'snippet' AS model, o.id AS id, o.name AS name, o.description AS description, o.archived AS archived,
      o.collection_id AS collection_id, NULL AS database_id, NULL AS table_id, o.creator_id AS creator_id, o.updated_at AS updated_at,
      NULL AS display, o.created_at AS created_at, NULL AS collection_position,
      CASE WHEN ${inName} THEN 1 ELSE 0 END AS in_name
      FROM native_query_snippet o WHERE ${where}`;
  },
};

export const dashboardBranch: SearchBranch = {
  models: ['dashboard'],
  collectionGoverned: true,
  sql(f, models) {
    if (!models.has('dashboard') || f.tableDbId !== null) return null;
    const where = and(sql`o.archived = ${f.archived}`, createdBy(f));
    const from = raw(
      f.words.length ? "hit h JOIN report_dashboard o ON h.model = 'dashboard' AND o.id = h.model_id" : 'report_dashboard o',
    );
    return sql`SELECT 'dashboard' AS model, o.id AS id, o.name AS name, o.description AS description, o.archived AS archived,
      o.collection_id AS collection_id, NULL AS database_id, NULL AS table_id, o.creator_id AS creator_id, o.updated_at AS updated_at,
      NULL AS display, o.created_at AS created_at, o.collection_position AS collection_position,
      ${inNameColumn(f)} AS in_name, o.collection_id AS acc_id
      FROM ${from} WHERE ${where}`;
  },
};

/** Every kind of object search finds. */
export const SEARCH_BRANCHES: readonly SearchBranch[] = [
  dashboardBranch,
  cardBranch,
  collectionBranch,
  tableBranch,
  databaseBranch,
  snippetBranch,
];

/** The API's `models` values, in the order `available_models` lists them. */
export const SEARCH_MODELS = ['dashboard', 'card', 'dataset', 'metric', 'collection', 'table', 'database', 'snippet'] as const;
