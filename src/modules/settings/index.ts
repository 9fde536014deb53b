export { DEFAULT_REFRESH_SCHEDULE, isDue, nextRun, parseRefreshSchedule, type RefreshSchedule } from './refresh-schedule';
export { SettingsModule } from './settings.module';
export { SettingsRepository } from './settings.repository';
export { SettingsService } from './settings.service';
export { UPLOAD_ENGINES, type UploadsSettings } from './uploads-settings';
