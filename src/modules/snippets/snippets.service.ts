import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { uniqueOr } from '../../common/database/unique-violation';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { commonName } from '../../common/views/wire-values';
import { DatabaseAccessService } from '../warehouse';
import { NativeQuerySnippet } from '../../schema/snippet.entity';
import { SnippetChanges, SnippetsRepository } from './snippets.repository';
import { toSnippetView } from './snippet.view';
import { CreateSnippetDto, UpdateSnippetDto } from './snippets.dto';

const nameTaken = (name: string) =>
  ValidationError.of('name', 'A snippet with that name already exists. Please pick a different name.', name);

/**
 * Native query snippets. Everyone may read them (they are SQL text, not data); creating one needs native query
 * rights on at least one database, as in Metabase. Editing one changes the SQL that runs on every database it
 * has been used on, so it needs native rights on each of those (on at least one while it is unused).
 */
@Injectable()
export class SnippetsService {
  constructor(
    private readonly repo: SnippetsRepository,
    private readonly access: DatabaseAccessService,
  ) {}

  /** Pairs this instance has stored already: a snippet in every run of a query costs one insert, not one per run. */
  private readonly recorded = new Set<string>();

  async list(archived: boolean) {
    return this.views(await this.repo.list(archived));
  }

  async get(id: number) {
    return (await this.views([await this.require(id)]))[0];
  }

  /** For the query engine: by name (`{{snippet: name}}`) or id; archived snippets still resolve, as saved queries use them. */
  async find(nameOrId: string | number): Promise<NativeQuerySnippet | null> {
    return typeof nameOrId === 'number' ? this.repo.byId(nameOrId) : this.repo.byName(nameOrId);
  }

  /** Notes that a native query on `databaseId` included the snippet. */
  async recordUse(snippetId: number, databaseId: number): Promise<void> {
    const key = `${snippetId}:${databaseId}`;
    if (this.recorded.has(key)) return;
    await this.repo.recordUse(snippetId, databaseId);
    this.recorded.add(key);
  }

  async create(dto: CreateSnippetDto, caller: AuthUser) {
    await this.assertMayWrite(caller);
    if (await this.repo.byName(dto.name)) throw nameTaken(dto.name);
    const id = await uniqueOr(
      () =>
        this.repo.create({
          name: dto.name,
          content: dto.content,
          description: dto.description ?? null,
          collection_id: dto.collection_id ?? null,
          creator_id: caller.id,
        }),
      () => nameTaken(dto.name),
    );
    return this.get(id);
  }

  async update(id: number, dto: UpdateSnippetDto, caller: AuthUser) {
    const snippet = await this.require(id);
    await this.assertMayEdit(caller, id);
    if (dto.name !== undefined && dto.name !== snippet.name && (await this.repo.byName(dto.name))) throw nameTaken(dto.name);
    const changes: SnippetChanges = {};
    for (const k of ['name', 'content', 'description', 'collection_id', 'archived'] as const) {
      if (dto[k] !== undefined) (changes as Record<string, unknown>)[k] = dto[k];
    }
    if (Object.keys(changes).length > 0)
      await uniqueOr(
        () => this.repo.update(id, changes),
        () => nameTaken(dto.name ?? snippet.name),
      );
    return this.get(id);
  }

  private async assertMayWrite(caller: AuthUser): Promise<void> {
    const map = await this.access.accessMap(caller);
    if (map !== 'all' && ![...map.values()].some((a) => a.native === 'write')) throw new ForbiddenError();
  }

  private async assertMayEdit(caller: AuthUser, id: number): Promise<void> {
    const map = await this.access.accessMap(caller);
    if (map === 'all') return;
    const usedOn = await this.repo.databasesUsing(id);
    if (usedOn.length === 0) return this.assertMayWrite(caller);
    if (!usedOn.every((db) => map.get(db)?.native === 'write')) throw new ForbiddenError();
  }

  private async require(id: number): Promise<NativeQuerySnippet> {
    const s = await this.repo.byId(id);
    if (!s) throw new NotFoundError();
    return s;
  }

  private async views(rows: NativeQuerySnippet[]) {
    const ids = [...new Set(rows.map((r) => r.creator_id))];
    const creators = await this.repo.creators(ids);
    const byId = new Map(creators.map((u) => [u.id, { id: u.id, email: u.email, common_name: commonName(u) }]));
    return rows.map((r) => toSnippetView(r, byId.get(r.creator_id)));
  }
}
