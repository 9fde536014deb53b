import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { ClusterModule } from './common/cluster/cluster.module';
import { CoreModule } from './common/core.module';
import { DatabaseModule } from './common/database/database.module';
import { AppLogger } from './common/logging/app-logger';
import { ActionsModule } from './modules/actions/actions.module';
import { AutomagicModule } from './modules/automagic/automagic.module';
import { ApiKeysModule } from './modules/api-keys/api-keys.module';
import { BookmarksApiModule } from './modules/bookmarks/bookmarks-api.module';
import { BookmarksModule } from './modules/bookmarks/bookmarks.module';
import { CardsModule } from './modules/cards/cards.module';
import { CollectionsModule } from './modules/collections/collections.module';
import { DashboardsModule } from './modules/dashboards/dashboards.module';
import { ContentModule } from './modules/content/content.module';
import { DashboardQueriesModule } from './modules/dashboard-queries/dashboard-queries.module';
import { DatasetModule } from './modules/dataset/dataset.module';
import { DatabasesModule } from './modules/databases/databases.module';
import { EmbeddingModule } from './modules/embedding/embedding.module';
import { FieldsModule } from './modules/fields/fields.module';
import { LegacyMetricsModule } from './modules/legacy-metrics/legacy-metrics.module';
import { HealthModule } from './modules/health/health.module';
import { LandingModule } from './modules/landing/landing.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { ApiDocsModule } from './modules/api-docs/api-docs.module';
import { RevisionsModule } from './modules/revisions/revisions.module';
import { SearchApiModule } from './modules/search/search-api.module';
import { SearchModule } from './modules/search/search.module';
import { QueryCacheModule } from './modules/query-cache/query-cache.module';
import { QueryLogModule } from './modules/query-log/query-log.module';
import { PermissionsModule } from './modules/permissions/permissions.module';
import { PersistenceModule } from './modules/persistence/persistence.module';
import { PublicSharingModule } from './modules/public-sharing/public-sharing.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { SnippetsModule } from './modules/snippets/snippets.module';
import { SsoModule } from './modules/sso/sso.module';
import { SettingsModule } from './modules/settings/settings.module';
import { SetupModule } from './modules/setup/setup.module';
import { TablesModule } from './modules/tables/tables.module';
import { TimelinesModule } from './modules/timelines/timelines.module';
import { UploadsModule } from './modules/uploads/uploads.module';
import { UsersModule } from './modules/users/users.module';
import { UtilModule } from './modules/util/util.module';
import { WebPagesModule } from './modules/web-pages/web-pages.module';

/** Feature modules, in no particular order; each owns its routes, services and entities. */
export const FEATURE_MODULES = [
  TimelinesModule,
  SettingsModule,
  ContentModule,
  UsersModule,
  PermissionsModule,
  SessionsModule,
  SetupModule,
  ApiKeysModule,
  UtilModule,
  HealthModule,
  DatabasesModule,
  SnippetsModule,
  QueryLogModule,
  QueryCacheModule,
  DatasetModule,
  TablesModule,
  FieldsModule,
  CollectionsModule,
  RevisionsModule,
  BookmarksModule,
  BookmarksApiModule,
  SearchModule,
  SearchApiModule,
  CardsModule,
  UploadsModule,
  DashboardQueriesModule,
  DashboardsModule,
  EmbeddingModule,
  LegacyMetricsModule,
  PublicSharingModule,
  SsoModule,
  ActionsModule,
  PersistenceModule,
  AutomagicModule,
  LandingModule,
  WebPagesModule,
  MetricsModule,
  ApiDocsModule,
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: AppLogger): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config, logger), DatabaseModule, ClusterModule, ...FEATURE_MODULES] };
  }
}
