import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { SnippetDatabase } from '../../schema/snippet-database.entity';
import { NativeQuerySnippet } from '../../schema/snippet.entity';
import { User } from '../../schema/user.entity';

export type SnippetChanges = Partial<Pick<NativeQuerySnippet, 'name' | 'content' | 'description' | 'collection_id' | 'archived'>>;
export type NewSnippet = Pick<NativeQuerySnippet, 'name' | 'content' | 'description' | 'collection_id' | 'creator_id'>;

/** Snippets and the databases each has run on. */
@Injectable()
export class SnippetsRepository {
  constructor(
    @InjectRepository(NativeQuerySnippet) private readonly snippets: Repository<NativeQuerySnippet>,
    @InjectRepository(SnippetDatabase) private readonly uses: Repository<SnippetDatabase>,
  ) {}

  list(archived: boolean): Promise<NativeQuerySnippet[]> {
    return this.snippets.find({ where: { archived }, order: { name: 'ASC' } });
  }

  byId(id: number): Promise<NativeQuerySnippet | null> {
    return this.snippets.findOneBy({ id });
  }

  byName(name: string): Promise<NativeQuerySnippet | null> {
    return this.snippets.findOneBy({ name });
  }

  async create(snippet: NewSnippet): Promise<number> {
    return (await this.snippets.save(this.snippets.create({ ...snippet, archived: false }))).id;
  }

  async update(id: number, changes: SnippetChanges): Promise<void> {
    await this.snippets.update({ id }, changes);
  }

  /** Notes that the snippet ran on the database; a pair already noted stays as it is. */
  async recordUse(snippetId: number, databaseId: number): Promise<void> {
    await this.uses.createQueryBuilder().insert().values({ snippet_id: snippetId, database_id: databaseId }).orIgnore().execute();
  }

  async databasesUsing(snippetId: number): Promise<number[]> {
    return (await this.uses.findBy({ snippet_id: snippetId })).map((u) => u.database_id);
  }

  creators(ids: number[]): Promise<User[]> {
    return ids.length ? this.snippets.manager.find(User, { where: { id: In(ids) } }) : Promise.resolve([]);
  }
}
