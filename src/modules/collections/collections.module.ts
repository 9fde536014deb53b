import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SearchModule } from '../search/search.module';
import { CollectionAccessService } from './collection-access.service';
import { CollectionGrantsRepository } from './collection-grants.repository';
import { CollectionGraphService } from './collection-graph.service';
import { CollectionItemsRegistry } from './collection-items.registry';
import { CollectionItemsService } from './collection-items.service';
import { CollectionPermission } from './collection-permission.entity';
import { CollectionReader } from './collection-reader.service';
import { CollectionTreeService } from './collection-tree.service';
import { CollectionWriteService } from './collection-write.service';
import { Collection } from './collection.entity';
import { CollectionsController } from './collections.controller';
import { CollectionsRepository } from './collections.repository';
import { CollectionsService } from './collections.service';
import { PersonalCollectionsService } from './personal-collections.service';

@Module({
  imports: [TypeOrmModule.forFeature([Collection, CollectionPermission]), SearchModule],
  controllers: [CollectionsController],
  providers: [
    CollectionAccessService,
    CollectionItemsRegistry,
    CollectionsRepository,
    CollectionGrantsRepository,
    CollectionReader,
    CollectionsService,
    CollectionWriteService,
    CollectionTreeService,
    CollectionItemsService,
    CollectionGraphService,
    PersonalCollectionsService,
  ],
  exports: [CollectionAccessService, CollectionItemsRegistry, PersonalCollectionsService],
})
export class CollectionsModule {}
