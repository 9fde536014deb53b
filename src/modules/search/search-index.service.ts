import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { INDEXED_TABLES, SearchIndexRepository, type TermRow } from './search-index.repository';
import { searchWords } from './search-terms';

/** What the index keeps of one object. */
export interface Searchable {
  name: string;
  description?: string | null;
}

/** The index rows of one object: each word once, marked when it is in the name. */
function termRows(model: string, id: number, obj: Searchable): TermRow[] {
  const inName = searchWords(obj.name);
  const named = new Set(inName);
  return [
    ...inName.map((term) => ({ model, model_id: id, term, in_name: true })),
    ...searchWords(obj.description)
      .filter((w) => !named.has(w))
      .map((term) => ({ model, model_id: id, term, in_name: false })),
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
  constructor(private readonly repo: SearchIndexRepository) {}

  async index(tx: EntityManager, model: string, id: number, obj: Searchable): Promise<void> {
    await this.remove(tx, model, id);
    await this.repo.insertTerms(tx, termRows(model, id, obj));
  }

  async remove(tx: EntityManager, model: string, id: number): Promise<void> {
    await this.repo.removeTerms(tx, model, [id]);
  }

  /** True when the index is empty while there are objects to index (a start-up check: at most two one-row reads). */
  async needsReindex(): Promise<boolean> {
    return (await this.repo.isEmpty()) && (await this.repo.anyIndexable());
  }

  /**
   * Indexes every object that has no words in the index yet (all of them on an empty index), in batches of their
   * own transactions; answers how many it indexed. When nothing is missing, one indexed anti-join per model.
   */
  async reindexAll(): Promise<number> {
    let done = 0;
    for (const model of Object.keys(INDEXED_TABLES)) {
      let after = 0;
      for (;;) {
        const rows = await this.repo.pendingAfter(model, after, BATCH);
        if (rows.length === 0) break;
        await this.repo.transaction(async (tx) => {
          await this.repo.removeTerms(
            tx,
            model,
            rows.map((r) => r.id),
          );
          await this.repo.insertTerms(
            tx,
            rows.flatMap((r) => termRows(model, r.id, r)),
          );
        });
        done += rows.length;
        after = rows[rows.length - 1].id;
      }
    }
    return done;
  }
}
