import { EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { DescribedDatabase } from '../../query-engine/execute/drivers/driver';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { displayName, semanticTypeFromName } from './semantic-types';

export interface MetadataSummary {
  tables_added: number;
  tables_deactivated: number;
  fields_added: number;
  fields_deactivated: number;
  fks: number;
}

/** Rows per INSERT of new fields: some 30 columns each, well inside SQLite's limit on bound values. */
const FIELD_INSERT_CHUNK = 200;

const key = (schema: string | null, name: string) => `${schema ?? ''}\u0000${name}`;
const edited = (e: { user_edited: string[] | null }, col: string) => Boolean(e.user_edited?.includes(col));

/**
 * Applies what `describe()` found to the app DB, in the caller's transaction so a failure leaves nothing half
 * written. Updates in place: ids never change, new tables and columns appear, vanished ones turn inactive, and
 * whatever a person edited (display names, descriptions, semantic types, visibility) is left alone.
 */
export async function applyDescribed(tx: EntityManager, dbId: number, described: DescribedDatabase): Promise<MetadataSummary> {
  const summary: MetadataSummary = { tables_added: 0, tables_deactivated: 0, fields_added: 0, fields_deactivated: 0, fks: 0 };
  const existingTables = await tx.find(WarehouseTable, { where: { db_id: dbId } });
  const tablesByKey = new Map(existingTables.map((t) => [key(t.schema, t.name), t]));
  const seenTables = new Set<number>();
  const fkColumns = new Set(described.foreignKeys.map((f) => key(f.schema, f.table) + '\u0000' + f.column));

  for (const info of described.tables) {
    let table = tablesByKey.get(key(info.schema, info.name));
    if (!table) {
      table = await tx.save(
        tx.create(WarehouseTable, {
          db_id: dbId,
          schema: info.schema,
          name: info.name,
          display_name: displayName(info.name),
          is_view: info.kind === 'view',
          active: true,
          field_order: 'database',
          initial_sync_status: 'complete',
          description: null,
          entity_type: null,
          visibility_type: null,
          user_edited: null,
          estimated_row_count: null,
          points_of_interest: null,
          caveats: null,
        }),
      );
      tablesByKey.set(key(info.schema, info.name), table);
      summary.tables_added++;
    } else if (!table.active || table.is_view !== (info.kind === 'view')) {
      await tx.update(WarehouseTable, { id: table.id }, { active: true, is_view: info.kind === 'view' });
    }
    seenTables.add(table.id);

    const existingFields = await tx.find(WarehouseField, { where: { table_id: table.id } });
    const fieldsByName = new Map(existingFields.map((f) => [f.name, f]));
    const seenFields = new Set<number>();
    const added: WarehouseField[] = [];
    for (const col of info.columns) {
      const isFk = fkColumns.has(key(info.schema, info.name) + '\u0000' + col.name);
      const semantic = semanticTypeFromName({ name: col.name, baseType: col.baseType, isPk: col.pk, isFk });
      const field = fieldsByName.get(col.name);
      if (!field) {
        added.push(
          tx.create(WarehouseField, {
            table_id: table.id,
            name: col.name,
            display_name: displayName(col.name),
            database_type: col.databaseType,
            base_type: col.baseType,
            effective_type: col.baseType,
            semantic_type: semantic,
            active: true,
            position: col.position,
            database_position: col.position,
            custom_position: 0,
            database_is_pk: col.pk,
            database_required: !col.nullable,
            visibility_type: 'normal',
            has_field_values: 'none',
            user_edited: null,
            description: null,
            coercion_strategy: null,
            fk_target_field_id: null,
            nfc_path: null,
            settings: null,
            json_unfolding: null,
            fingerprint: null,
            points_of_interest: null,
            caveats: null,
            preview_display: true,
            last_analyzed: null,
          }),
        );
        continue;
      }
      seenFields.add(field.id);
      const typeChanged = field.base_type !== col.baseType;
      await tx.update(
        WarehouseField,
        { id: field.id },
        {
          active: true,
          database_type: col.databaseType,
          base_type: col.baseType,
          effective_type: typeChanged ? col.baseType : field.effective_type,
          database_position: col.position,
          position: table.field_order === 'database' ? col.position : field.position,
          database_is_pk: col.pk,
          database_required: !col.nullable,
          ...(edited(field, 'semantic_type') || (!typeChanged && field.semantic_type && !col.pk && !isFk)
            ? {}
            : { semantic_type: semantic }),
        },
      );
    }
    // New columns in a few multi-row INSERTs: a save apiece (insert and read back) kept a 400-column upload's sync
    // busy for seconds, and on SQLite that is the event loop itself.
    for (let i = 0; i < added.length; i += FIELD_INSERT_CHUNK)
      await tx.insert(WarehouseField, added.slice(i, i + FIELD_INSERT_CHUNK) as QueryDeepPartialEntity<WarehouseField>[]);
    summary.fields_added += added.length;
    for (const f of existingFields) {
      if (!seenFields.has(f.id) && f.active) {
        await tx.update(WarehouseField, { id: f.id }, { active: false });
        summary.fields_deactivated++;
      }
    }
  }

  for (const t of existingTables) {
    if (!seenTables.has(t.id) && t.active) {
      await tx.update(WarehouseTable, { id: t.id }, { active: false });
      summary.tables_deactivated++;
    }
  }
  summary.fks = await linkForeignKeys(tx, dbId, described, tablesByKey);
  return summary;
}

async function linkForeignKeys(
  tx: EntityManager,
  dbId: number,
  described: DescribedDatabase,
  tables: Map<string, WarehouseTable>,
): Promise<number> {
  const tableIds = [...tables.values()].map((t) => t.id);
  if (tableIds.length === 0) return 0;
  const fields = await tx.find(WarehouseField, { where: { table_id: In(tableIds) } });
  const fieldId = new Map(fields.map((f) => [`${f.table_id}\u0000${f.name}`, f]));
  let linked = 0;
  for (const fk of described.foreignKeys) {
    const from = tables.get(key(fk.schema, fk.table));
    const to = tables.get(key(fk.targetSchema, fk.targetTable));
    const source = from && fieldId.get(`${from.id}\u0000${fk.column}`);
    const target = to && fieldId.get(`${to.id}\u0000${fk.targetColumn}`);
    if (!source || !target) continue;
    const semantic = edited(source, 'semantic_type') ? source.semantic_type : 'type/FK';
    const targetId = edited(source, 'fk_target_field_id') ? source.fk_target_field_id : target.id;
    if (source.fk_target_field_id !== targetId || source.semantic_type !== semantic) {
      await tx.update(WarehouseField, { id: source.id }, { fk_target_field_id: targetId, semantic_type: semantic });
    }
    linked++;
  }
  return linked;
}
