import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';

@Injectable()
export class TablesRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Every active table, by name (GET /api/table/). */
  activeTables(): Promise<WarehouseTable[]> {
    return this.db.manager.find(WarehouseTable, { where: { active: true }, order: { name: 'ASC', id: 'ASC' } });
  }

  activeTablesOfDb(dbId: number): Promise<WarehouseTable[]> {
    return this.db.manager.find(WarehouseTable, { where: { db_id: dbId, active: true }, order: { name: 'ASC', id: 'ASC' } });
  }

  tablesByIds(ids: number[], tx: EntityManager = this.db.manager): Promise<WarehouseTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return tx.find(WarehouseTable, { where: { id: In(ids) }, order: { id: 'ASC' } });
  }

  async updateTable(id: number, changes: Partial<WarehouseTable>, tx: EntityManager): Promise<void> {
    if (Object.keys(changes).length > 0) await tx.update(WarehouseTable, { id }, changes);
  }

  /** Writes each field's position (and custom position, when given) in one transaction. */
  async setPositions(positions: Array<{ id: number; position: number; custom_position?: number }>, tx: EntityManager): Promise<void> {
    for (const p of positions) {
      await tx.update(
        WarehouseField,
        { id: p.id },
        p.custom_position === undefined ? { position: p.position } : { position: p.position, custom_position: p.custom_position },
      );
    }
  }
}
