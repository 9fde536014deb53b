import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionAccessService } from './collection-access.service';
import { CollectionItemsRegistry } from './collection-items.registry';
import { CollectionPermission } from './collection-permission.entity';
import { Collection } from './collection.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Collection, CollectionPermission])],
  providers: [CollectionAccessService, CollectionItemsRegistry],
  exports: [CollectionAccessService, CollectionItemsRegistry],
})
export class CollectionsModule {}
