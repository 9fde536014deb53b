export { describeChanges } from './revision-describe';
export { type DescribeContext, offerRevisionTarget } from './revision-targets';
export { RevisionService } from './revision.service';
export { RevisionsModule } from './revisions.module';
