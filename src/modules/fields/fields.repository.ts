import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, QueryDeepPartialEntity } from 'typeorm';
import { WarehouseTable } from '../../schema/table.entity';
import { Dimension } from '../../schema/dimension.entity';
import { FieldValues } from '../../schema/field-values.entity';
import { WarehouseField } from '../../schema/field.entity';

/** Field metadata in the app DB: fields, their value lists and dimensions, and the tables they belong to. */
@Injectable()
export class FieldsRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  findField(id: number): Promise<WarehouseField | null> {
    return this.db.manager.findOneBy(WarehouseField, { id });
  }

  fieldsByIds(ids: number[]): Promise<WarehouseField[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseField, { where: { id: In(ids) } });
  }

  /** Active fields of the tables, in their display order. */
  activeFields(tableIds: number[], tx: EntityManager = this.db.manager): Promise<WarehouseField[]> {
    if (tableIds.length === 0) return Promise.resolve([]);
    return tx.find(WarehouseField, { where: { table_id: In(tableIds), active: true }, order: { position: 'ASC', id: 'ASC' } });
  }

  allFieldIds(tableId: number): Promise<number[]> {
    return this.db.manager.find(WarehouseField, { where: { table_id: tableId }, select: { id: true } }).then((fs) => fs.map((f) => f.id));
  }

  /** Active fields whose foreign key points at one of `targetIds`. */
  fieldsPointingAt(targetIds: number[]): Promise<WarehouseField[]> {
    if (targetIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseField, {
      where: { fk_target_field_id: In(targetIds), active: true },
      order: { table_id: 'ASC', position: 'ASC', id: 'ASC' },
    });
  }

  async updateField(id: number, changes: Partial<WarehouseField>, tx: EntityManager = this.db.manager): Promise<void> {
    if (Object.keys(changes).length > 0) await tx.update(WarehouseField, { id }, changes as QueryDeepPartialEntity<WarehouseField>);
  }

  findTable(id: number): Promise<WarehouseTable | null> {
    return this.db.manager.findOneBy(WarehouseTable, { id });
  }

  tablesByIds(ids: number[]): Promise<WarehouseTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(WarehouseTable, { where: { id: In(ids) } });
  }

  dimensions(fieldIds: number[]): Promise<Dimension[]> {
    if (fieldIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(Dimension, { where: { field_id: In(fieldIds) } });
  }

  findDimension(fieldId: number): Promise<Dimension | null> {
    return this.db.manager.findOneBy(Dimension, { field_id: fieldId });
  }

  async saveDimension(fieldId: number, d: Pick<Dimension, 'name' | 'type' | 'human_readable_field_id'>): Promise<Dimension> {
    const existing = await this.findDimension(fieldId);
    if (existing) {
      await this.db.manager.update(Dimension, { id: existing.id }, d);
    } else {
      await this.db.manager.insert(Dimension, { field_id: fieldId, ...d });
    }
    return (await this.findDimension(fieldId))!;
  }

  async deleteDimension(fieldId: number, type?: Dimension['type'], tx: EntityManager = this.db.manager): Promise<void> {
    await tx.delete(Dimension, type ? { field_id: fieldId, type } : { field_id: fieldId });
  }

  async renameDimension(fieldId: number, name: string, tx: EntityManager = this.db.manager): Promise<void> {
    await tx.update(Dimension, { field_id: fieldId }, { name });
  }

  values(fieldIds: number[]): Promise<FieldValues[]> {
    if (fieldIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(FieldValues, { where: { field_id: In(fieldIds) } });
  }

  async saveValues(fieldId: number, values: unknown[], human: string[] | null): Promise<void> {
    await this.db.transaction((tx) =>
      tx.upsert(FieldValues, { field_id: fieldId, values: values as never[], human_readable_values: human, has_more_values: false }, [
        'field_id',
      ]),
    );
  }
}
