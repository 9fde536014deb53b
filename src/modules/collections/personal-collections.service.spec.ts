import type { EntityManager } from 'typeorm';
import { EventBus } from '../../common/events/event-bus';
import type { CollectionAccessService } from './collection-access.service';
import { CollectionSaved } from './collection-events';
import type { CollectionsRepository } from './collections.repository';
import { personalCollectionName, PersonalCollectionsService } from './personal-collections.service';

/** PersonalCollectionsService: each user's collection is named after them and indexed; the repository mocked. */
describe('PersonalCollectionsService', () => {
  const tx = {} as EntityManager;
  const ann = { id: 7, email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };

  function setup() {
    const repo = {
      insert: jest.fn().mockResolvedValue(30),
      renamePersonal: jest.fn().mockResolvedValue(undefined),
      personalIdIn: jest.fn().mockResolvedValue(31),
    };
    const bus = new EventBus();
    const saved: CollectionSaved[] = [];
    bus.on(CollectionSaved, (e) => void saved.push(e));
    const service = new PersonalCollectionsService(repo as unknown as CollectionsRepository, {} as CollectionAccessService, bus);
    return { service, repo, saved };
  }

  it('creates a top-level collection owned by the user, named after them, and tells the search index', async () => {
    const m = setup();
    await expect(m.service.create(tx, ann)).resolves.toBe(30);
    const name = personalCollectionName(ann);
    expect(name).toContain('Ann Lee');
    expect(m.repo.insert).toHaveBeenCalledWith(tx, expect.objectContaining({ name, location: '/', personal_owner_id: 7, namespace: null }));
    expect(m.saved.map((e) => [e.collectionId, e.name])).toEqual([[30, name]]);
  });

  it('renames it with its owner, by the email when there is no name', async () => {
    const m = setup();
    const nameless = { ...ann, first_name: null, last_name: null };
    await m.service.rename(tx, nameless);
    expect(m.repo.renamePersonal).toHaveBeenCalledWith(tx, 7, personalCollectionName(nameless));
    expect(personalCollectionName(nameless)).toContain('ann@example.com');
    expect(m.saved.map((e) => e.collectionId)).toEqual([31]);
  });
});
