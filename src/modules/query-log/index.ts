export { BackgroundWork } from './background-work';
export { canonicalJson } from './canonical-json';
export { queryHash, rawQueryHash } from './query-hash';
export { QueryLogModule } from './query-log.module';
export { QueryLogService } from './query-log.service';
