import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionAccessRepository } from './collection-access.repository';
import { CollectionAccessService } from './collection-access.service';
import { CollectionGrantsRepository } from './collection-grants.repository';
import { CollectionGraphService } from './collection-graph.service';
import { CollectionItemsService } from './collection-items.service';
import { CollectionPermission } from '../../schema/collection-permission.entity';
import { CollectionReader } from './collection-reader.service';
import { CollectionTreeService } from './collection-tree.service';
import { CollectionWriteService } from './collection-write.service';
import { Collection } from '../../schema/collection.entity';
import { CollectionsController } from './collections.controller';
import { CollectionsRepository } from './collections.repository';
import { CollectionsService } from './collections.service';
import { PersonalCollectionsService } from './personal-collections.service';
import { TenantCollectionsService } from './tenant-collections.service';

/**
 * Collections: the tree, its items and who may see them (CollectionAccessService, used by every module whose
 * content lives in collections). What it lists, archives and deletes with a collection, and what it tells the search
 * index and bookmarks, goes through the event bus (collection-item-source.ts, collection-events.ts): the modules
 * keeping those things depend on this one, not the other way round.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Collection, CollectionPermission])],
  controllers: [CollectionsController],
  providers: [
    CollectionAccessService,
    CollectionAccessRepository,
    CollectionsRepository,
    CollectionGrantsRepository,
    CollectionReader,
    CollectionsService,
    CollectionWriteService,
    CollectionTreeService,
    CollectionItemsService,
    CollectionGraphService,
    PersonalCollectionsService,
    TenantCollectionsService,
  ],
  exports: [CollectionAccessService, PersonalCollectionsService, TenantCollectionsService],
})
export class CollectionsModule {}
