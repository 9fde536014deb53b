import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { searchWords } from './search-terms';

/** What the index keeps of one object. */
export interface Searchable {
  name: string;
  description?: string | null;
}

/**
 * The word index behind GET /api/search: owners of searchable objects call `index` in the transaction that
 * saves the object (and `remove` in the one that deletes it), so the index never disagrees with the objects.
 */
@Injectable()
export class SearchIndexService {
  async index(tx: EntityManager, model: string, id: number, obj: Searchable): Promise<void> {
    await this.remove(tx, model, id);
    const inName = searchWords(obj.name);
    const rows = [
      ...inName.map((term) => ({ model, model_id: id, term, in_name: true })),
      ...searchWords(obj.description).filter((w) => !inName.includes(w)).map((term) => ({ model, model_id: id, term, in_name: false })),
    ];
    for (let i = 0; i < rows.length; i += 200) {
      await tx.createQueryBuilder().insert().into('search_term').values(rows.slice(i, i + 200)).execute();
    }
  }

  async remove(tx: EntityManager, model: string, id: number): Promise<void> {
    await tx.createQueryBuilder().delete().from('search_term').where('model = :model AND model_id = :id', { model, id }).execute();
  }
}
