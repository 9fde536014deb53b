import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ArchivedError, ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import { CollectionAccessService } from './collection-access.service';
import { CollectionGrantsRepository } from './collection-grants.repository';
import { CollectionSaved, CollectionsArchived, CollectionsDeleted, CollectionsDeleting } from './collection-events';
import { CollectionReader } from './collection-reader.service';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { CreateCollectionDto, UpdateCollectionDto } from './collections.dto';
import { ancestorIds, childLocation, isWithin, parentId, topLevelId } from './location';
import { entityId } from '../../common/database/entity-id';

export const MSG_MOVE_INTO_SELF = "You can't move a Collection into itself or into one of its descendants.";
export const MSG_NAMESPACE = 'Collection must be in the same namespace as its parent';
export const MSG_PERSONAL_ARCHIVE = 'You cannot archive a Personal Collection.';
export const MSG_PERSONAL_MOVE = 'You cannot move a Personal Collection.';
export const MSG_PARENT_ARCHIVED =
  'The parent collection is archived: unarchive it first, or move this collection out of it with parent_id.';
export const MSG_DELETE_UNTRASHED = 'Collection must be trashed before deletion.';
export const MSG_DELETE_NAMESPACE = 'Collections in non-nil namespaces cannot be deleted.';
export const MSG_DELETE_PERSONAL = 'Personal collections cannot be deleted.';

/**
 * Creating, editing, moving, archiving collections. A new collection copies its parent's grants (the Root's of its
 * namespace at the top); nothing inside a personal tree holds grants. Archiving takes the subtree and its items along.
 */
@Injectable()
export class CollectionWriteService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly grants: CollectionGrantsRepository,
    private readonly reader: CollectionReader,
    private readonly access: CollectionAccessService,
    private readonly bus: EventBus,
  ) {}

  async create(user: AuthUser, dto: CreateCollectionDto): Promise<number> {
    const parent = dto.parent_id ? await this.reader.require(dto.parent_id) : null;
    const namespace = dto.namespace !== undefined && dto.namespace !== null ? dto.namespace : (parent?.namespace ?? null);
    if (parent && parent.namespace !== namespace) throw new MessageError(MSG_NAMESPACE);
    await this.access.assertWrite(user, parent, namespace);
    if (parent?.archived) throw new ArchivedError();
    if (dto.authority_level && !user.isSuperuser) throw new ForbiddenError();
    const personalParent = parent ? await this.inPersonalTree(parent) : false;
    return this.repo.transaction(async (tx) => {
      const id = await this.repo.insert(tx, {
        name: dto.name,
        description: dto.description ?? null,
        location: parent ? childLocation(parent) : '/',
        personal_owner_id: null,
        namespace,
        authority_level: dto.authority_level ?? null,
        slug: slugify(dto.name),
        entity_id: entityId(),
      });
      if (!personalParent) await this.grants.inherit(tx, [id], parent?.id ?? null, namespace);
      await this.bus.emit(new CollectionSaved(tx, id, dto.name, dto.description ?? null));
      return id;
    });
  }

  async update(user: AuthUser, id: number, dto: UpdateCollectionDto): Promise<void> {
    const c = await this.reader.require(id);
    await this.access.assertWrite(user, c);
    // Clients send the form back whole: only a change of the authority level needs an admin.
    if (dto.authority_level !== undefined && (dto.authority_level ?? null) !== c.authority_level && !user.isSuperuser)
      throw new ForbiddenError();
    const oldParent = await this.parentOf(c);
    const move = dto.parent_id !== undefined ? await this.checkMove(user, c, oldParent, dto.parent_id) : null;
    const archive = dto.archived !== undefined && dto.archived !== c.archived ? dto.archived : undefined;
    if (archive !== undefined) {
      if (c.personal_owner_id !== null) throw new MessageError(MSG_PERSONAL_ARCHIVE);
      await this.access.assertWrite(user, oldParent, c.namespace);
      const parentAfter = move ? move.parent : oldParent;
      if (!archive && parentAfter?.archived) throw new MessageError(MSG_PARENT_ARCHIVED);
    }
    await this.repo.transaction(async (tx) => {
      const changes: Partial<Pick<CollectionRow, 'name' | 'description' | 'authority_level' | 'slug'>> = {};
      if (dto.name !== undefined) Object.assign(changes, { name: dto.name, slug: slugify(dto.name) });
      if (dto.description !== undefined) changes.description = dto.description;
      if (dto.authority_level !== undefined) changes.authority_level = dto.authority_level;
      await this.repo.update(tx, id, changes);
      if (dto.name !== undefined || dto.description !== undefined) {
        const description = dto.description !== undefined ? dto.description : c.description;
        await this.bus.emit(new CollectionSaved(tx, id, dto.name ?? c.name, description));
      }
      if (move) await this.applyMove(tx, c, move);
      if (archive !== undefined) await this.applyArchive(tx, (await this.repo.findById(id, tx))!, archive);
    });
  }

  /**
   * DELETE /api/collection/:id (admins): a trashed collection goes for good with everything in it, in one
   * transaction. Collections below it that were trashed on their own stay in the trash: they move up to its place
   * first, with their own subtrees, as in Metabase.
   */
  async delete(id: number): Promise<void> {
    const c = await this.reader.require(id);
    if (!c.archived) throw new MessageError(MSG_DELETE_UNTRASHED);
    if (c.namespace !== null) throw new MessageError(MSG_DELETE_NAMESPACE);
    if (c.personal_owner_id !== null) throw new MessageError(MSG_DELETE_PERSONAL);
    // What reaches the warehouse (a persisted model's table) cannot be part of the transaction: it runs before.
    const doomed = doomedIds(c, await this.repo.subtree(childLocation(c)));
    await this.bus.emit(new CollectionsDeleting(doomed));
    await this.repo.transaction(async (tx) => {
      await this.repo.lockMoves(tx);
      const self = await this.repo.findById(id, tx);
      if (!self) throw new NotFoundError();
      if (!self.archived) throw new MessageError(MSG_DELETE_UNTRASHED);
      for (const kept of keptInTrash(self, await this.repo.subtree(childLocation(self), tx))) await this.repo.move(tx, kept, self.location);
      const ids = [self.id, ...(await this.repo.subtree(childLocation(self), tx)).map((d) => d.id)];
      for (let i = 0; i < ids.length; i += 5000) await this.bus.emit(new CollectionsDeleted(tx, ids.slice(i, i + 5000)));
      await this.repo.deleteMany(tx, ids);
    });
  }

  /** The checks of a move; null when the collection stays where it is. */
  private async checkMove(user: AuthUser, c: CollectionRow, oldParent: CollectionRow | null, parentIdTo: number | null) {
    const parent = parentIdTo === null ? null : await this.repo.findById(parentIdTo);
    if (parentIdTo !== null && !parent) throw new NotFoundError();
    const location = parent ? childLocation(parent) : '/';
    if (location === c.location) return null;
    if (c.personal_owner_id !== null) throw new MessageError(MSG_PERSONAL_MOVE);
    if (parent && (parent.id === c.id || isWithin(parent.location, childLocation(c)))) throw new MessageError(MSG_MOVE_INTO_SELF);
    if (parent && parent.namespace !== c.namespace) throw new MessageError(MSG_NAMESPACE);
    await this.access.assertWrite(user, oldParent, c.namespace);
    await this.access.assertWrite(user, parent, c.namespace);
    if (parent?.archived && !c.archived) throw new ArchivedError();
    const fromPersonal = await this.inPersonalTree(c);
    const toPersonal = parent ? await this.inPersonalTree(parent) : false;
    return { parent, location, fromPersonal, toPersonal };
  }

  /**
   * Moves the subtree. Into a personal tree its grants go; out of one into a shared place it takes the new parent's
   * (the Root's at the top); between shared places it keeps its own, as in Metabase.
   */
  private async applyMove(
    tx: EntityManager,
    c: CollectionRow,
    m: { parent: CollectionRow | null; location: string; fromPersonal: boolean; toPersonal: boolean },
  ) {
    // Moves run one at a time and check again what they read before: two crossing moves must not make a cycle.
    await this.repo.lockMoves(tx);
    const self = await this.repo.findById(c.id, tx);
    const parent = m.parent ? await this.repo.findById(m.parent.id, tx) : null;
    if (!self || (m.parent && !parent)) throw new NotFoundError();
    if (parent && (parent.id === self.id || isWithin(parent.location, childLocation(self)))) throw new MessageError(MSG_MOVE_INTO_SELF);
    const location = parent ? childLocation(parent) : '/';
    await this.repo.move(tx, self, location);
    if (m.fromPersonal === m.toPersonal) return;
    const ids = [c.id, ...(await this.repo.subtree(`${location}${c.id}/`, tx)).map((d) => d.id)];
    await this.grants.removeFor(tx, ids);
    if (!m.toPersonal) await this.grants.inherit(tx, ids, m.parent?.id ?? null, c.namespace);
  }

  /**
   * Archiving marks the collection (directly) and every unarchived collection below it. Unarchiving restores the
   * collection and what was archived with it, not the parts of the subtree archived on their own before.
   */
  private async applyArchive(tx: EntityManager, c: CollectionRow, archived: boolean) {
    const below = await this.repo.subtree(childLocation(c), tx);
    let others: number[];
    if (archived) {
      others = below.filter((d) => !d.archived).map((d) => d.id);
    } else {
      const directly = new Set(below.filter((d) => d.archived_directly).map((d) => d.id));
      others = below
        .filter((d) => d.archived && !d.archived_directly && !ancestorIds(d.location).some((a) => directly.has(a)))
        .map((d) => d.id);
    }
    await this.repo.setArchived(tx, [c.id], archived, archived);
    await this.repo.setArchived(tx, others, archived, false);
    const ids = [c.id, ...others];
    for (let i = 0; i < ids.length; i += 5000) await this.bus.emit(new CollectionsArchived(tx, ids.slice(i, i + 5000), archived));
  }

  private async parentOf(c: CollectionRow): Promise<CollectionRow | null> {
    const p = parentId(c.location);
    return p === null ? null : this.repo.findById(p);
  }

  private async inPersonalTree(c: CollectionRow): Promise<boolean> {
    if (c.personal_owner_id !== null) return true;
    if (c.location === '/') return false;
    const top = await this.repo.findById(topLevelId(c));
    return top?.personal_owner_id !== null && top?.personal_owner_id !== undefined;
  }
}

/** The topmost collections below `c` trashed on their own: they outlive its deletion (their subtrees with them). */
function keptInTrash(c: CollectionRow, below: CollectionRow[]): CollectionRow[] {
  const directly = new Set(below.filter((d) => d.archived_directly).map((d) => d.id));
  const own = ancestorIds(childLocation(c));
  return below.filter((d) => directly.has(d.id) && !ancestorIds(d.location).some((a) => directly.has(a) && !own.includes(a)));
}

/** `c` and the collections below it that go with it. */
function doomedIds(c: CollectionRow, below: CollectionRow[]): number[] {
  const kept = keptInTrash(c, below);
  return [c.id, ...below.filter((d) => !kept.some((k) => k.id === d.id || isWithin(d.location, childLocation(k)))).map((d) => d.id)];
}

export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 510) || 'collection'
  );
}
