import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { personalCollectionName } from '../../migrations/1764288000000-content';
import { EventBus } from '../../common/events/event-bus';
import { CollectionSaved } from './collection-events';
import { CollectionAccessService } from './collection-access.service';
import { entityId } from '../../common/database/entity-id';
import { slugify } from './collection-write.service';
import { CollectionsRepository } from './collections.repository';

export { personalCollectionName };

interface Owner {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** Every user's personal collection: made with the user, renamed with them, found in bulk for user answers. */
@Injectable()
export class PersonalCollectionsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly access: CollectionAccessService,
    private readonly bus: EventBus,
  ) {}

  /** Inside the transaction that creates the user. Personal collections hold no grants. */
  async create(tx: EntityManager, user: Owner): Promise<number> {
    const name = personalCollectionName(user);
    const id = await this.repo.insert(tx, {
      name,
      description: null,
      location: '/',
      personal_owner_id: user.id,
      namespace: null,
      authority_level: null,
      slug: slugify(name),
      entity_id: entityId(),
    });
    await this.bus.emit(new CollectionSaved(tx, id, name, null));
    return id;
  }

  /** After the owner's name or email changed, inside that transaction. */
  async rename(tx: EntityManager, user: Owner): Promise<void> {
    const name = personalCollectionName(user);
    await this.repo.renamePersonal(tx, user.id, name);
    const id = await this.repo.personalIdIn(tx, user.id);
    if (id !== null) await this.bus.emit(new CollectionSaved(tx, id, name, null));
  }

  /** Each user's personal collection id, in one query. */
  idsFor(userIds: number[]): Promise<Map<number, number>> {
    return this.access.personalCollectionIds(userIds);
  }
}
