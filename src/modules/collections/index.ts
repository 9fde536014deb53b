export { CollectionAccessService, type CollectionPlace } from './collection-access.service';
export { CollectionSaved, CollectionsDeleted } from './collection-events';
export { type CollectionItem, type CollectionItemSource, type ItemsQuery, subscribeItemSource } from './collection-item-source';
export { rootView } from './collection.view';
export { CollectionsModule } from './collections.module';
export { ancestorIds } from './location';
export { PersonalCollectionsService } from './personal-collections.service';
export { TenantCollectionsService } from './tenant-collections.service';
