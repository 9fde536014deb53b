import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { sql } from '../../common/database/sql';
import { Setting } from '../../schema/setting.entity';

/** The `setting` table: key/value rows, read whole by SettingsService's cache and written in one transaction. */
@Injectable()
export class SettingsRepository {
  private readonly sql: AppSql;

  constructor(@InjectRepository(Setting) private readonly rows: Repository<Setting>) {
    this.sql = new AppSql(rows.manager.connection);
  }

  all(): Promise<Setting[]> {
    return this.rows.find();
  }

  async value(key: string): Promise<string | null> {
    return (await this.rows.findOneBy({ key }))?.value ?? null;
  }

  /** Stores `value` only if the key is absent; true for the one caller (of all instances) that stored it. */
  async claim(key: string, value: string): Promise<boolean> {
    const stored = await this.sql.query(
      sql`INSERT INTO setting (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING RETURNING key`,
    );
    return stored.length === 1;
  }

  /** Deletes the key only while it holds `value`; true when it did (a token used once). */
  async consume(key: string, value: string, tx: EntityManager): Promise<boolean> {
    return Boolean((await tx.delete(Setting, { key, value })).affected);
  }

  /** Sets (or, for null, deletes) each key and the change stamp, all or none. */
  async write(writes: ReadonlyArray<readonly [string, string | null]>, stamp: readonly [string, string]): Promise<void> {
    await this.rows.manager.transaction(async (tx) => {
      for (const [key, value] of writes) {
        if (value === null) await tx.delete(Setting, { key });
        else await tx.upsert(Setting, { key, value }, ['key']);
      }
      await tx.upsert(Setting, { key: stamp[0], value: stamp[1] }, ['key']);
    });
  }
}
