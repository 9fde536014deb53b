import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { entityId } from '../../common/database/entity-id';
import { EventBus } from '../../common/events/event-bus';
import { CollectionSaved } from './collection-events';
import { CollectionGrantsRepository } from './collection-grants.repository';
import { CollectionWriteService, slugify } from './collection-write.service';
import { CollectionsRepository } from './collections.repository';
import type { UpdateCollectionDto } from './collections.dto';

/**
 * A tenant's collection, where its users curate: a top-level collection that only the tenant's group may write (and
 * admins, as everywhere). It copies none of the Root's grants, so internal users do not see it unless an admin
 * grants it, and the users of other tenants never do.
 */
@Injectable()
export class TenantCollectionsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly grants: CollectionGrantsRepository,
    private readonly write: CollectionWriteService,
    private readonly bus: EventBus,
  ) {}

  /** Inside the transaction that creates the tenant. */
  async create(tx: EntityManager, name: string, groupId: number): Promise<number> {
    const id = await this.repo.insert(tx, {
      name,
      description: null,
      location: '/',
      personal_owner_id: null,
      namespace: null,
      authority_level: null,
      slug: slugify(name),
      entity_id: entityId(),
    });
    await this.grants.apply(tx, [{ group_id: groupId, collection_id: id, perm: 'write' }], null);
    await this.bus.emit(new CollectionSaved(tx, id, name, null));
    return id;
  }

  /** The collection follows its tenant's name. */
  async rename(tx: EntityManager, id: number, name: string): Promise<void> {
    await this.repo.update(tx, id, { name, slug: slugify(name) });
    const c = await this.repo.findById(id, tx);
    if (c) await this.bus.emit(new CollectionSaved(tx, id, name, c.description));
  }

  /** Archived with its content when the tenant is deactivated (as the admin doing it), restored when reactivated. */
  async setArchived(admin: AuthUser, id: number, archived: boolean): Promise<void> {
    const c = await this.repo.findById(id);
    if (!c || c.archived === archived) return;
    const dto: UpdateCollectionDto = { archived };
    await this.write.update(admin, id, dto);
  }
}
