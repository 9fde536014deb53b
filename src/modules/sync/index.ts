export { chooseHasFieldValues } from './analyze';
export { SyncModule } from './sync.module';
export { SyncRepository } from './sync.repository';
export { SyncService } from './sync.service';
