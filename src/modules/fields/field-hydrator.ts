import { Injectable } from '@nestjs/common';
import { iso } from '../../common/views/wire-values';
import { Dimension } from '../../schema/dimension.entity';
import { FieldValues } from '../../schema/field-values.entity';
import { HasFieldValues, WarehouseField } from '../../schema/field.entity';
import { toFieldView } from '../databases';
import { FieldsRepository } from './fields.repository';

/** Metabase stores `auto-list` but shows it as `list`, so clients only ever deal with `list`. */
export function shownHasFieldValues(f: WarehouseField): Exclude<HasFieldValues, 'auto-list'> {
  return f.has_field_values === 'auto-list' ? 'list' : f.has_field_values;
}

/** A field view with `has_field_values` as clients see it. */
export function fieldView(f: WarehouseField) {
  return { ...toFieldView(f), has_field_values: shownHasFieldValues(f) };
}

export function dimensionView(d: Dimension) {
  return {
    id: d.id,
    field_id: d.field_id,
    name: d.name,
    type: d.type,
    human_readable_field_id: d.human_readable_field_id,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
  };
}

/** `[[value], ...]`, or `[[value, human readable], ...]` when the values are remapped. */
export function valuePairs(fv: FieldValues | undefined): unknown[][] {
  if (!fv) return [];
  const human = fv.human_readable_values;
  return fv.values.map((v, i) => (human && human.length > 0 ? [v, human[i] ?? String(v)] : [v]));
}

export const isPk = (f: WarehouseField) => f.semantic_type === 'type/PK';

/**
 * Adds what Metabase hydrates on a field for the query builder: its dimension(s), the field its foreign key points
 * at, and for a primary key the field that names a row (Name, else Title). With `values`, the stored value list.
 * Unless `includeSensitive` (admins), a sensitive field shows neither as a target or name field nor with values.
 */
@Injectable()
export class FieldHydrator {
  constructor(private readonly repo: FieldsRepository) {}

  async detailed(fields: WarehouseField[], opts: { values?: boolean; includeSensitive?: boolean } = {}) {
    const visible = (f: WarehouseField | undefined) => (f && (opts.includeSensitive || f.visibility_type !== 'sensitive') ? f : undefined);
    const ids = fields.map((f) => f.id);
    const targetIds = [...new Set(fields.map((f) => f.fk_target_field_id).filter((id): id is number => id !== null))];
    const pkTables = [...new Set(fields.filter(isPk).map((f) => f.table_id))];
    const [dims, targets, siblings, values] = await Promise.all([
      this.repo.dimensions(ids),
      this.repo.fieldsByIds(targetIds),
      this.repo.activeFields(pkTables),
      opts.values ? this.repo.values(ids) : Promise.resolve([]),
    ]);
    const dimsBy = groupBy(dims, (d) => d.field_id);
    const targetBy = new Map(targets.filter((t) => t.active).map((t) => [t.id, t]));
    const valuesBy = new Map(values.map((v) => [v.field_id, v]));
    return fields.map((f) => {
      const target = f.fk_target_field_id === null ? undefined : visible(targetBy.get(f.fk_target_field_id));
      const nameField = isPk(f) ? entityNameField(siblings.filter((s) => s.table_id === f.table_id && visible(s))) : undefined;
      const stored = visible(f) ? valuesBy.get(f.id) : undefined;
      return {
        ...fieldView(f),
        dimensions: (dimsBy.get(f.id) ?? []).map(dimensionView),
        target: target ? fieldView(target) : null,
        name_field: nameField ? fieldView(nameField) : null,
        ...(opts.values ? { values: valuePairs(stored), has_more_values: stored?.has_more_values ?? false } : {}),
      };
    });
  }
}

function entityNameField(fields: WarehouseField[]): WarehouseField | undefined {
  return fields.find((f) => f.semantic_type === 'type/Name') ?? fields.find((f) => f.semantic_type === 'type/Title');
}

function groupBy<T, K>(items: T[], key: (t: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
