import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { ClusterModule } from './common/cluster/cluster.module';
import { CoreModule } from './common/core.module';
import { DatabaseModule } from './common/database/database.module';
import { AppLogger } from './common/logging/app-logger';
import { ActionsModule } from './modules/actions';
import { AutomagicModule } from './modules/automagic';
import { ApiKeysModule } from './modules/api-keys';
import { BookmarksModule } from './modules/bookmarks';
import { CardsModule } from './modules/cards';
import { CollectionsModule } from './modules/collections';
import { DashboardsModule } from './modules/dashboards';
import { DashboardQueriesModule } from './modules/dashboard-queries';
import { DatasetModule } from './modules/dataset';
import { DatabasesModule } from './modules/databases';
import { EmbeddingModule } from './modules/embedding';
import { FieldsModule } from './modules/fields';
import { SegmentsAndMetricsModule } from './modules/segments-and-metrics';
import { HealthModule } from './modules/health';
import { LandingModule } from './modules/landing';
import { ObservabilityModule } from './modules/observability';
import { ApiDocsModule } from './modules/api-docs';
import { RevisionsModule } from './modules/revisions';
import { RowSecurityModule } from './modules/row-security';
import { SearchModule } from './modules/search';
import { QueryCacheModule } from './modules/query-cache';
import { QueryLogModule } from './modules/query-log';
import { PermissionsModule } from './modules/permissions';
import { PersistenceModule } from './modules/persistence';
import { PublicSharingModule } from './modules/public-sharing';
import { PulseModule } from './modules/pulse';
import { SessionsModule } from './modules/sessions';
import { SnippetsModule } from './modules/snippets';
import { SsoModule } from './modules/sso';
import { SettingsModule } from './modules/settings';
import { SetupModule } from './modules/setup';
import { TablesModule } from './modules/tables';
import { TenantsModule } from './modules/tenants';
import { TimelinesModule } from './modules/timelines';
import { UploadsModule } from './modules/uploads';
import { UsersModule } from './modules/users';
import { UtilModule } from './modules/util';
import { WebPagesModule } from './modules/web-pages';

/** Feature modules, in no particular order; each owns its routes, services and repositories (entities are in src/schema). */
export const FEATURE_MODULES = [
  TimelinesModule,
  SettingsModule,
  TenantsModule,
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
  RowSecurityModule,
  TablesModule,
  FieldsModule,
  CollectionsModule,
  RevisionsModule,
  BookmarksModule,
  SearchModule,
  CardsModule,
  UploadsModule,
  DashboardQueriesModule,
  DashboardsModule,
  EmbeddingModule,
  SegmentsAndMetricsModule,
  PublicSharingModule,
  SsoModule,
  ActionsModule,
  PulseModule,
  PersistenceModule,
  AutomagicModule,
  LandingModule,
  WebPagesModule,
  ObservabilityModule,
  ApiDocsModule,
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: AppLogger): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config, logger), DatabaseModule, ClusterModule, ...FEATURE_MODULES] };
  }
}
