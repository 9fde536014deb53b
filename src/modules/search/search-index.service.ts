import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { searchWords } from './search-terms';

/** What the index keeps of one object. */
export interface Searchable {
  name: string;
  description?: string | null;
}

/** The table of each indexed model. */
const INDEXED_TABLES: Record<string, string> = { card: 'report_card', collection: 'collection', dashboard: 'report_dashboard' };

interface TermRow {
  model: string;
  model_id: number;
  term: string;
  in_name: boolean;
}

/** The index rows of one object: each word once, marked when it is in the name. */
function termRows(model: string, id: number, obj: Searchable): TermRow[] {
  const inName = searchWords(obj.name);
  const named = new Set(inName);
  return [
    ...inName.map((term) => ({ model, model_id: id, term, in_name: true })),
    ...searchWords(obj.description).filter((w) => !named.has(w)).map((term) => ({ model, model_id: id, term, in_name: false })),
  ];
}

/** Objects indexed per transaction by `reindexAll`. */
const BATCH = 500;

/**
 * The word index behind GET /api/search: owners of searchable objects call `index` in the transaction that
 * saves the object (and `remove` in the one that deletes it), so the index never disagrees with the objects.
 */
@Injectable()
export class SearchIndexService {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  async index(tx: EntityManager, model: string, id: number, obj: Searchable): Promise<void> {
    await this.remove(tx, model, id);
    await this.insertTerms(tx, termRows(model, id, obj));
  }

  async remove(tx: EntityManager, model: string, id: number): Promise<void> {
    await tx.createQueryBuilder().delete().from('search_term').where('model = :model AND model_id = :id', { model, id }).execute();
  }

  private async insertTerms(tx: EntityManager, rows: TermRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      await tx.createQueryBuilder().insert().into('search_term').values(rows.slice(i, i + 200)).execute();
    }
  }

  /** True when the index is empty while there are objects to index (a start-up check: at most two one-row reads). */
  async needsReindex(): Promise<boolean> {
    if ((await this.sql.query('SELECT 1 AS x FROM search_term LIMIT 1')).length > 0) return false;
    for (const table of Object.values(INDEXED_TABLES)) {
      if ((await this.sql.query(`SELECT 1 AS x FROM ${table} LIMIT 1`)).length > 0) return true;
    }
    return false;
  }

  /**
   * Indexes every object that has no words in the index yet (all of them on an empty index), in batches of their
   * own transactions; answers how many it indexed. When nothing is missing, one indexed anti-join per model.
   */
  async reindexAll(): Promise<number> {
    let done = 0;
    for (const [model, table] of Object.entries(INDEXED_TABLES)) {
      let after = 0;
      for (;;) {
        const rows = await this.sql.query<{ id: number; name: string; description: string | null }>(
          `SELECT o.id AS id, o.name AS name, o.description AS description FROM ${table} o
           WHERE o.id > $1 AND NOT EXISTS (SELECT 1 FROM search_term s WHERE s.model = $2 AND s.model_id = o.id)
           ORDER BY o.id LIMIT ${BATCH}`,
          [after, model],
        );
        if (rows.length === 0) break;
        await this.db.transaction(async (tx) => {
          await tx.createQueryBuilder().delete().from('search_term').where('model = :model AND model_id IN (:...ids)', { model, ids: rows.map((r) => Number(r.id)) }).execute();
          await this.insertTerms(tx, rows.flatMap((r) => termRows(model, Number(r.id), r)));
        });
        done += rows.length;
        after = Number(rows[rows.length - 1].id);
      }
    }
    return done;
  }
}
