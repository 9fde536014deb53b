import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { EventBus } from '../../common/events/event-bus';
import { CollectionsArchived, CollectionsDeleted, CollectionsDeleting } from './collection-events';
import {
  CollectionItemsQuery,
  CollectionModelsQuery,
  subscribeItemSource,
  type CollectionItemSource,
  type ItemsQuery,
} from './collection-item-source';

const user: AuthUser = { id: 1, isSuperuser: true, groupIds: [] };
const tx = {} as EntityManager;
const query = (models: string[]): ItemsQuery => ({
  user,
  collectionId: 3,
  namespace: null,
  models,
  archived: false,
  pinnedState: 'all',
});

/** A source of cards and models that records what it was asked. */
function cardsSource(withBeforeDelete: boolean) {
  const calls: string[] = [];
  const source: CollectionItemSource = {
    models: ['card', 'dataset'],
    items: async (q) => {
      calls.push(`items ${q.models.join(',')}`);
      return q.models.map((model, i) => ({ id: i + 1, model, name: model, last_edited_at: null, last_edited_by: null }));
    },
    modelsIn: async (ids) => new Map(ids.map((id) => [id, new Set(['card'])])),
    archiveIn: async (_tx, ids, archived) => void calls.push(`archive ${ids.join(',')} ${archived}`),
    deleteIn: async (_tx, ids) => void calls.push(`delete ${ids.join(',')}`),
    ...(withBeforeDelete ? { beforeDeleteIn: async (ids: number[]) => void calls.push(`before ${ids.join(',')}`) } : {}),
  };
  return { source, calls };
}

describe('subscribeItemSource', () => {
  it('asks a source only for its own models among those asked, and not at all when none are its', async () => {
    const bus = new EventBus();
    const { source, calls } = cardsSource(false);
    subscribeItemSource(bus, source);
    const answers = await bus.ask(new CollectionItemsQuery(query(['collection', 'dataset', 'timeline'])));
    expect(answers.flat().map((i) => i.model)).toEqual(['dataset']);
    expect(await bus.ask(new CollectionItemsQuery(query(['timeline'])))).toEqual([[]]);
    expect(calls).toEqual(['items dataset']);
  });

  it('answers the models of collections, and follows archiving and deletion', async () => {
    const bus = new EventBus();
    const { source, calls } = cardsSource(true);
    subscribeItemSource(bus, source);
    expect(await bus.ask(new CollectionModelsQuery([4], false))).toEqual([new Map([[4, new Set(['card'])]])]);
    await bus.emit(new CollectionsArchived(tx, [4, 5], true));
    await bus.emit(new CollectionsDeleting([4]));
    await bus.emit(new CollectionsDeleted(tx, [4]));
    expect(calls).toEqual(['archive 4,5 true', 'before 4', 'delete 4']);
  });

  it('leaves a source without clean-up outside the app database out of CollectionsDeleting', async () => {
    const bus = new EventBus();
    const { source, calls } = cardsSource(false);
    subscribeItemSource(bus, source);
    await bus.emit(new CollectionsDeleting([4]));
    expect(calls).toEqual([]);
  });
});
