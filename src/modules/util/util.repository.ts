import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKey } from '../../schema/api-key.entity';
import { PermissionsGroup } from '../../schema/permissions-group.entity';
import { User } from '../../schema/user.entity';
import { ProductFeedback } from '../../schema/product-feedback.entity';

export interface UsageCounts {
  users: { total: number; active: number; admins: number };
  groups: { total: number };
  api_keys: { total: number };
}

@Injectable()
export class UtilRepository {
  constructor(private readonly db: DataSource) {}

  async insertFeedback(values: Pick<ProductFeedback, 'user_id' | 'source' | 'comments' | 'email'>): Promise<void> {
    await this.db.manager.insert(ProductFeedback, values);
  }

  /** Counts only: the users an API key acts as are not people, so they are left out of the user counts. */
  async usageCounts(): Promise<UsageCounts> {
    const m = this.db.manager;
    const [total, active, admins, groups, apiKeys] = await Promise.all([
      m.count(User, { where: { type: 'personal' } }),
      m.count(User, { where: { type: 'personal', is_active: true } }),
      m.count(User, { where: { type: 'personal', is_active: true, is_superuser: true } }),
      m.count(PermissionsGroup),
      m.count(ApiKey),
    ]);
    return { users: { total, active, admins }, groups: { total: groups }, api_keys: { total: apiKeys } };
  }

  /** Name and version of the app DB server, for bug reports. */
  async appDbVersion(): Promise<{ name: string; version: string }> {
    if (this.db.options.type === 'postgres') {
      const [row] = (await this.db.query('SHOW server_version')) as Array<{ server_version: string }>;
      return { name: 'PostgreSQL', version: row.server_version };
    }
    const [row] = (await this.db.query('SELECT sqlite_version() AS version')) as Array<{ version: string }>;
    return { name: 'SQLite', version: row.version };
  }
}
