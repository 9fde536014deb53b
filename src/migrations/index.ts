import { Foundation1763683200000 } from './1763683200000-foundation';
import { Warehouses1763769600000 } from './1763769600000-warehouses';
import { Queries1763856000000 } from './1763856000000-queries';
import { QueryCache1764115200000 } from './1764115200000-query-cache';
import { SnippetDatabases1764201600000 } from './1764201600000-snippet-databases';
import { Content1764288000000 } from './1764288000000-content';
import { CardArchivedDirectly1764374400000 } from './1764374400000-card-archived-directly';
import { Dashboards1764460800000 } from './1764460800000-dashboards';
import { DownloadPermissions1764547200000 } from './1764547200000-download-permissions';
import { DashboardDetails1764633600000 } from './1764633600000-dashboard-details';
import { Timelines1764806400000 } from './1764806400000-timelines';
import { MetricsSegments1764892800000 } from './1764892800000-metrics-segments';
import { Actions1764979200000 } from './1764979200000-actions';
import { SamlReplay1765152000000 } from './1765152000000-saml-replay';
import { PersistedModels1765238400000 } from './1765238400000-persisted-models';
import { Uploads1765324800000 } from './1765324800000-uploads';
import { ModelIndex1765411200000 } from './1765411200000-model-index';
import { JobLease1765497600000 } from './1765497600000-job-lease';
import { CardListingOrder1765540800000 } from './1765540800000-card-listing-order';
import { UserAttributes1765584000000 } from './1765584000000-user-attributes';
import { RowPolicies1765670400000 } from './1765670400000-row-policies';
import { TablePermissions1765756800000 } from './1765756800000-table-permissions';
import { Tenants1765929600000 } from './1765929600000-tenants';
import { EmbeddingKeys1766016000000 } from './1766016000000-embedding-keys';
import { Impersonation1766102400000 } from './1766102400000-impersonation';
import { CoveringListingIndexes1766188800000 } from './1766188800000-covering-listing-indexes';

/** Every migration, in order. Append new ones; never edit one that has landed. */
export const MIGRATIONS = [
  Foundation1763683200000,
  Warehouses1763769600000,
  Queries1763856000000,
  QueryCache1764115200000,
  SnippetDatabases1764201600000,
  Content1764288000000,
  CardArchivedDirectly1764374400000,
  Dashboards1764460800000,
  DownloadPermissions1764547200000,
  DashboardDetails1764633600000,
  Timelines1764806400000,
  MetricsSegments1764892800000,
  Actions1764979200000,
  SamlReplay1765152000000,
  PersistedModels1765238400000,
  Uploads1765324800000,
  ModelIndex1765411200000,
  JobLease1765497600000,
  CardListingOrder1765540800000,
  UserAttributes1765584000000,
  RowPolicies1765670400000,
  TablePermissions1765756800000,
  Tenants1765929600000,
  EmbeddingKeys1766016000000,
  Impersonation1766102400000,
  CoveringListingIndexes1766188800000,
];
