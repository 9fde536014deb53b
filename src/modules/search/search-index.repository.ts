import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { raw, sql } from '../../common/database/sql';

/** One row of the word index: a word of an object, marked when it is in the object's name. */
export interface TermRow {
  model: string;
  model_id: number;
  term: string;
  in_name: boolean;
}

/** An object to index, as `pendingAfter` reads it. */
export interface IndexableRow {
  id: number;
  name: string;
  description: string | null;
}

/** The table of each indexed model. */
export const INDEXED_TABLES: Readonly<Record<string, string>> = {
  card: 'report_card',
  collection: 'collection',
  dashboard: 'report_dashboard',
};

/** Rows per INSERT of the index. */
const ROWS_PER_INSERT = 200;

/** Every query on `search_term`, and the reads of the indexed tables that rebuilding it needs. */
@Injectable()
export class SearchIndexRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Forgets the words of these objects of one model. */
  async removeTerms(tx: EntityManager, model: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.createQueryBuilder().delete().from('search_term').where('model = :model AND model_id IN (:...ids)', { model, ids }).execute();
  }

  async insertTerms(tx: EntityManager, rows: TermRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await tx
        .createQueryBuilder()
        .insert()
        .into('search_term')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
  }

  async isEmpty(): Promise<boolean> {
    return (await this.sql.query(sql`SELECT 1 AS x FROM search_term LIMIT 1`)).length === 0;
  }

  /** Whether any object of the indexed models exists (at most one one-row read per model). */
  async anyIndexable(): Promise<boolean> {
    for (const table of Object.values(INDEXED_TABLES)) {
      if ((await this.sql.query(sql`SELECT 1 AS x FROM ${raw(table)} LIMIT 1`)).length > 0) return true;
    }
    return false;
  }

  /** The next `limit` objects of a model after id `after` that have no words in the index, by id. */
  async pendingAfter(model: string, after: number, limit: number): Promise<IndexableRow[]> {
    const rows = await this.sql.query<{ id: unknown; name: string; description: string | null }>(
      sql`SELECT o.id AS id, o.name AS name, o.description AS description FROM ${raw(INDEXED_TABLES[model])} o
          WHERE o.id > ${after} AND NOT EXISTS (SELECT 1 FROM search_term s WHERE s.model = ${model} AND s.model_id = o.id)
          ORDER BY o.id LIMIT ${limit}`,
    );
    return rows.map((r) => ({ id: Number(r.id), name: r.name, description: r.description }));
  }
}
