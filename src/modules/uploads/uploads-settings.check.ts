import { Injectable, OnModuleInit } from '@nestjs/common';
import { SettingsService, UPLOAD_ENGINES, UploadsSettings } from '../settings';
import { UploadsRepository } from './uploads.repository';

/**
 * Checks of `uploads-settings` that need the app DB (the database exists and its engine takes uploads). The setting
 * registry is plain data without database access, so this module attaches the check to the definition at start.
 */
@Injectable()
export class UploadsSettingsCheck implements OnModuleInit {
  constructor(
    private readonly settings: SettingsService,
    private readonly repo: UploadsRepository,
  ) {}

  onModuleInit(): void {
    const def = this.settings.definition('uploads-settings');
    if (def) def.validateWith = (value) => this.check(value as UploadsSettings);
  }

  async check(value: UploadsSettings): Promise<string | undefined> {
    if (value.db_id === null || value.db_id === undefined) return undefined;
    const db = await this.repo.database(value.db_id);
    if (!db) return 'The uploads database does not exist.';
    if (!UPLOAD_ENGINES.includes(db.engine)) return `Uploads are not supported on ${db.engine} databases.`;
    return undefined;
  }
}
