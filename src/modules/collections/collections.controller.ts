import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { jsonBatches, sendJsonArray } from '../../common/http/json-array-stream';
import { IdParam } from '../../common/validation/pipes';
import { CollectionGraphService } from './collection-graph.service';
import { CollectionItemsService, ItemsOptions } from './collection-items.service';
import { CollectionTreeService } from './collection-tree.service';
import { CollectionWriteService } from './collection-write.service';
import {
  CreateCollectionDto,
  GraphBodyDto,
  GraphQuery,
  ItemsQueryDto,
  ListCollectionsQuery,
  NamespaceQuery,
  TreeQuery,
  UpdateCollectionDto,
} from './collections.dto';
import { CollectionsService } from './collections.service';

const itemsOptions = (q: ItemsQueryDto, namespace: string | null): ItemsOptions => ({
  namespace,
  models: q.models ?? [],
  archived: q.archived ?? false,
  pinnedState: q.pinned_state ?? 'all',
  sortColumn: q.sort_column,
  sortDirection: q.sort_direction,
  officialFirst: q.official_collections_first ?? true,
  limit: q.limit,
  offset: q.offset,
});

/** /api/collection: collections, the Root, the tree and the permission graph (`root`, `tree`, `graph` win over `:id`). */
@Controller('api/collection')
export class CollectionsController {
  constructor(
    private readonly collections: CollectionsService,
    private readonly writes: CollectionWriteService,
    private readonly trees: CollectionTreeService,
    private readonly itemLists: CollectionItemsService,
    private readonly graphs: CollectionGraphService,
  ) {}

  @Get()
  @Access('user')
  list(@Query() q: ListCollectionsQuery, @CurrentUser() user: AuthUser) {
    return this.collections.list(user, {
      namespace: q.namespace ?? null,
      archived: q.archived ?? false,
      excludeOthersPersonal: q['exclude-other-user-collections'] ?? false,
      personalOnly: q['personal-only'] ?? false,
    });
  }

  @Get('root')
  @Access('user')
  root(@Query() q: NamespaceQuery, @CurrentUser() user: AuthUser) {
    return this.collections.root(user, q.namespace ?? null);
  }

  @Get('root/items')
  @Access('user')
  rootItems(@Query() q: ItemsQueryDto, @CurrentUser() user: AuthUser) {
    return this.itemLists.items(user, null, itemsOptions(q, q.namespace ?? null));
  }

  @Get('tree')
  @Access('user')
  async tree(@Query() q: TreeQuery, @CurrentUser() user: AuthUser, @Res() res: Response) {
    const roots = await this.trees.tree(user, {
      namespace: q.namespace ?? null,
      excludeArchived: q['exclude-archived'] ?? false,
      excludeOthersPersonal: q['exclude-other-user-collections'] ?? false,
      shallow: q.shallow ?? false,
      collectionId: q['collection-id'] ?? null,
    });
    await sendJsonArray(res, jsonBatches(roots));
  }

  @Get('graph')
  @Access('admin')
  graph(@Query() q: NamespaceQuery) {
    return this.graphs.graph(q.namespace ?? null);
  }

  @Put('graph')
  @Access('admin')
  async updateGraph(@Query() q: GraphQuery, @Body() body: GraphBodyDto, @CurrentUser() user: AuthUser) {
    const namespace = q.namespace ?? body.namespace ?? null;
    const revision = await this.graphs.update(user, namespace, body, q.force ?? false);
    return q.skip_graph ? { revision } : this.graphs.graph(namespace);
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  async create(@Body() body: CreateCollectionDto, @CurrentUser() user: AuthUser) {
    return this.collections.get(user, await this.writes.create(user, body));
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @CurrentUser() user: AuthUser) {
    return this.collections.get(user, id);
  }

  @Put(':id')
  @Access('user')
  async update(@Param('id', IdParam()) id: number, @Body() body: UpdateCollectionDto, @CurrentUser() user: AuthUser) {
    await this.writes.update(user, id, body);
    return this.collections.get(user, id);
  }

  /** Deletes a trashed collection with its contents for good; Metabase answers the number of collections deleted (1). */
  @Delete(':id')
  @Access('admin')
  @HttpCode(200)
  // A bare number would go out as text/html; Metabase's clients read JSON.
  @Header('Content-Type', 'application/json')
  async remove(@Param('id', IdParam()) id: number): Promise<number> {
    await this.writes.delete(id);
    return 1;
  }

  @Get(':id/items')
  @Access('user')
  items(@Param('id', IdParam()) id: number, @Query() q: ItemsQueryDto, @CurrentUser() user: AuthUser) {
    return this.itemLists.items(user, id, itemsOptions(q, null));
  }
}
