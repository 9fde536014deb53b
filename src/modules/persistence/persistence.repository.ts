import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { typedRow, typedRows, type RowShape } from '../../common/database/row-values';
import { WarehouseDatabase } from '../../schema/database.entity';
import { PersistedInfo, PersistedState } from '../../schema/persisted-info.entity';

/** The card fields persisting needs. */
export interface ModelRow {
  id: number;
  name: string;
  type: string;
  archived: boolean;
  database_id: number | null;
  collection_id: number | null;
  dataset_query: string;
  result_metadata: string | null;
}

export const MODEL_ROW_SHAPE: RowShape = { numbers: ['id', 'database_id', 'collection_id'], booleans: ['archived'] };

/** A persisted_info row with its card's name and collection, for the listings. */
export interface PersistedListRow extends PersistedInfo {
  card_name: string | null;
  collection_id: number | null;
  card_archived: boolean | null;
  database_name: string | null;
}

/** Raw rows bypass the entity's transformer, so `lease_until` (BIGINT) is read here too. */
export const PERSISTED_LIST_ROW_SHAPE: RowShape = {
  numbers: ['id', 'database_id', 'card_id', 'creator_id', 'lease_until', 'collection_id'],
  booleans: ['active', 'card_archived'],
};

@Injectable()
export class PersistenceRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  async card(id: number): Promise<ModelRow | null> {
    const [row] = await this.sql.query<Record<string, unknown>>(
      'SELECT id, name, type, archived, database_id, collection_id, dataset_query, result_metadata FROM report_card WHERE id = $1',
      [id],
    );
    return row ? typedRow<ModelRow>(row, MODEL_ROW_SHAPE) : null;
  }

  async internalSetting(key: string): Promise<string | null> {
    const [row] = await this.sql.query<{ value: string | null }>('SELECT value FROM setting WHERE key = $1', [key]);
    return row?.value ?? null;
  }

  database(id: number): Promise<WarehouseDatabase | null> {
    return this.db.manager.findOneBy(WarehouseDatabase, { id });
  }

  async setDatabaseSetting(id: number, key: string, value: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      const db = await tx.findOneByOrFail(WarehouseDatabase, { id });
      await tx.save(WarehouseDatabase, { ...db, settings: { ...(db.settings ?? {}), [key]: value } });
    });
  }

  byCard(cardId: number): Promise<PersistedInfo | null> {
    return this.db.manager.findOneBy(PersistedInfo, { card_id: cardId });
  }

  byId(id: number): Promise<PersistedInfo | null> {
    return this.db.manager.findOneBy(PersistedInfo, { id });
  }

  byDatabase(databaseId: number): Promise<PersistedInfo[]> {
    return this.db.manager.find(PersistedInfo, { where: { database_id: databaseId } });
  }

  /** The rows with their cards' names, newest first; `ids` narrows to some rows. */
  async list(where: { ids?: number[] } = {}): Promise<PersistedListRow[]> {
    const qb = this.db.manager
      .createQueryBuilder(PersistedInfo, 'p')
      .leftJoin('report_card', 'c', 'c.id = p.card_id')
      .leftJoin('metabase_database', 'd', 'd.id = p.database_id')
      .select('p.*')
      .addSelect('c.name', 'card_name')
      .addSelect('c.collection_id', 'collection_id')
      .addSelect('c.archived', 'card_archived')
      .addSelect('d.name', 'database_name')
      .orderBy('p.id', 'DESC');
    if (where.ids) qb.where('p.id IN (:...ids)', { ids: where.ids.length ? where.ids : [-1] });
    return typedRows<PersistedListRow>(await qb.getRawMany<Record<string, unknown>>(), PERSISTED_LIST_ROW_SHAPE);
  }

  /** The row for a card, created in state `creating` when absent (one per card: the unique card_id decides races). */
  async upsert(
    row: Pick<PersistedInfo, 'database_id' | 'card_id' | 'question_slug' | 'schema_name' | 'table_name' | 'creator_id'>,
  ): Promise<PersistedInfo> {
    const existing = await this.byCard(row.card_id);
    if (existing) return existing;
    try {
      return await this.db.manager.save(PersistedInfo, {
        ...row,
        state: 'creating',
        active: false,
        created_at: new Date(),
        state_change_at: new Date(),
      });
    } catch (e) {
      const again = await this.byCard(row.card_id);
      if (again) return again;
      throw e;
    }
  }

  async update(id: number, changes: Partial<PersistedInfo>): Promise<void> {
    await this.db.manager.update(PersistedInfo, { id }, changes);
  }

  async setState(id: number, state: PersistedState, extra: Partial<PersistedInfo> = {}): Promise<void> {
    await this.update(id, { state, state_change_at: new Date(), ...extra });
  }

  async remove(id: number): Promise<void> {
    await this.db.manager.delete(PersistedInfo, { id });
  }

  /**
   * Takes the build lease of a persisted model for `holder` (or renews it): one instance at a time builds a model's
   * table; a crashed holder's lease expires after `ttlMs`.
   */
  async claimLease(id: number, holder: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const changed = await this.sql.execute(
      'UPDATE persisted_info SET lease_holder = $1, lease_until = $2' +
        ' WHERE id = $3 AND (lease_until IS NULL OR lease_until < $4 OR lease_holder = $5)',
      [holder, now + ttlMs, id, now, holder],
    );
    return changed === 1;
  }

  async releaseLease(id: number, holder: string): Promise<void> {
    await this.sql.execute('UPDATE persisted_info SET lease_holder = NULL, lease_until = NULL WHERE id = $1 AND lease_holder = $2', [
      id,
      holder,
    ]);
  }

  /** Rows the scheduler may have to rebuild: every row not switched off or waiting to be dropped. */
  candidates(): Promise<PersistedInfo[]> {
    return this.db.manager.createQueryBuilder(PersistedInfo, 'p').where("p.state NOT IN ('off', 'deletable')").getMany();
  }
}
