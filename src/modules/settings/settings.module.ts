import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SETTINGS_READER } from '../../common/settings/settings-reader';
import { SettingsController } from './settings.controller';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';
import { Setting } from '../../schema/setting.entity';

/**
 * Settings. Global, as configuration is: nearly every module reads them, and so do the access guards of common/auth
 * (through SETTINGS_READER, which common declares and this module provides).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Setting])],
  controllers: [SettingsController],
  providers: [SettingsService, SettingsRepository, { provide: SETTINGS_READER, useExisting: SettingsService }],
  exports: [SettingsService, SettingsRepository, SETTINGS_READER],
})
export class SettingsModule {}
