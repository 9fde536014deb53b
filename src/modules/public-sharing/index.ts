export { PUBLIC_MODEL, PublicModel } from './public-link.resolver';
export { PublicSharingModule } from './public-sharing.module';
export { type FieldAllowlist, SharedFieldsService } from './shared-fields.service';
export { SharedQueriesService, type SharedRun } from './shared-queries.service';
export { sharedDownload, sharedResults } from './shared-results';
export { dashcardActionIds, sharedCardView, sharedDashboardView, sharedParameters } from './shared-views';
