import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseDatabase } from '../../schema/database.entity';

@Injectable()
export class DatabasesRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  list(ids?: number[]): Promise<WarehouseDatabase[]> {
    return this.db.manager.find(WarehouseDatabase, { where: ids ? { id: In(ids) } : {}, order: { name: 'ASC', id: 'ASC' } });
  }

  findById(id: number, tx: EntityManager = this.db.manager): Promise<WarehouseDatabase | null> {
    return tx.findOneBy(WarehouseDatabase, { id });
  }

  findSample(): Promise<WarehouseDatabase | null> {
    return this.db.manager.findOneBy(WarehouseDatabase, { is_sample: true });
  }

  async save(db: Partial<WarehouseDatabase>, tx: EntityManager = this.db.manager): Promise<WarehouseDatabase> {
    return tx.save(WarehouseDatabase, db);
  }

  /** Removes the database and its metadata (FKs cascade to tables, fields, values, dimensions, grants). */
  async delete(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Fields point at fields of other tables; clear those links first so the cascade order does not matter.
      const tableIds = (await tx.find(WarehouseTable, { where: { db_id: id }, select: { id: true } })).map((t) => t.id);
      if (tableIds.length > 0) await tx.update(WarehouseField, { table_id: In(tableIds) }, { fk_target_field_id: null });
      await tx.delete(WarehouseDatabase, { id });
    });
  }

  activeTables(dbIds: number[]): Promise<WarehouseTable[]> {
    if (dbIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseTable, { where: { db_id: In(dbIds), active: true }, order: { schema: 'ASC', name: 'ASC' } });
  }

  activeFields(tableIds: number[]): Promise<WarehouseField[]> {
    if (tableIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseField, { where: { table_id: In(tableIds), active: true }, order: { position: 'ASC', id: 'ASC' } });
  }
}
