export { TimelinesModule } from './timelines.module';
