import { Injectable } from '@nestjs/common';
import { isAdmin, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError } from '../../common/errors/api-errors';
import { WarehouseField } from '../../schema/field.entity';
import { FieldDataService } from './field-data.service';
import { isa } from './field-types';
import { FieldsRepository } from './fields.repository';
import { MetadataAccess } from './metadata-access.service';

const HIDDEN = new Set(['sensitive', 'retired']);

/** Types whose values a key look-up can compare with a query-string value (keyParam in field-queries.ts). */
const COMPARABLE = new Set(['type/Text', 'type/Integer', 'type/BigInteger', 'type/Float', 'type/Decimal']);

/** Sensitive (credentials) or retired: no look-up for a shared object or a parameter widget shows its values. */
export function hiddenValues(f: WarehouseField): boolean {
  return HIDDEN.has(f.visibility_type);
}

/** Active and neither sensitive nor retired: a field whose values a look-up may show. */
export function showable(f: WarehouseField | null | undefined): f is WarehouseField {
  return !!f && f.active && !hiddenValues(f);
}

/**
 * How a field's values are displayed, as Metabase decides it for parameter widgets (its chain filter's
 * `remapping` and the public API's `check-search-field-is-allowed`):
 * - a field is shown as the human-readable field of its dimension; else a foreign key as the Name field of the
 *   table it points at, and a primary key as the Name field of its own table;
 * - a look-up around a shared object may pair a field only with itself, its dimension's human-readable field, or
 *   (for a primary key) a Name field of its table. Anything else would read any column of a related table.
 */
@Injectable()
export class FieldRemappingService {
  constructor(
    private readonly repo: FieldsRepository,
    private readonly access: MetadataAccess,
    private readonly data: FieldDataService,
  ) {}

  /** Metabase's check-search-field-is-allowed. */
  async isAllowedPair(field: WarehouseField, secondId: number): Promise<boolean> {
    if (field.id === secondId) return true;
    if ((await this.repo.findDimension(field.id))?.human_readable_field_id === secondId) return true;
    if (!isa(field.semantic_type, 'type/PK')) return false;
    const second = await this.repo.findField(secondId);
    return !!second && second.active && second.table_id === field.table_id && isa(second.semantic_type, 'type/Name');
  }

  /** The first showable Name field of each table (Metabase's `name_field`), by table id. */
  async nameFields(tableIds: number[]): Promise<Map<number, WarehouseField>> {
    const out = new Map<number, WarehouseField>();
    for (const f of await this.repo.activeFields([...new Set(tableIds)])) {
      if (!out.has(f.table_id) && isa(f.semantic_type, 'type/Name') && showable(f)) out.set(f.table_id, f);
    }
    return out;
  }

  /**
   * The field `field`'s values are displayed as, or null. A dimension's human-readable field wins; when that one
   * may not be shown, the field is shown as itself rather than through another field.
   */
  async displayField(field: WarehouseField): Promise<WarehouseField | null> {
    const dim = await this.repo.findDimension(field.id);
    if (dim && dim.human_readable_field_id !== null) {
      const human = await this.repo.findField(dim.human_readable_field_id);
      return showable(human) ? human : null;
    }
    let pk: WarehouseField | null = isa(field.semantic_type, 'type/PK') ? field : null;
    if (isa(field.semantic_type, 'type/FK') && field.fk_target_field_id !== null) {
      const target = await this.repo.findField(field.fk_target_field_id);
      pk = target && target.active && isa(target.semantic_type, 'type/PK') ? target : null;
    }
    return pk ? ((await this.nameFields([pk.table_id])).get(pk.table_id) ?? null) : null;
  }

  /**
   * `[value, display]` for one value of a parameter on the field (`.../params/:key/remapping`): the human-readable
   * value stored for it, else the display field's value on the row it keys; `[value]` when there is none (typed
   * as the field's value when the value occurs). Sensitive fields are for admins, as their value lists are.
   */
  async remappedValue(caller: Reader, fieldId: number, value: string): Promise<unknown[]> {
    const { field } = await this.access.field(caller, fieldId, 'read');
    if (field.visibility_type === 'sensitive' && !isAdmin(caller)) throw new ForbiddenError();
    const [stored] = await this.repo.values([fieldId]);
    if (stored?.human_readable_values?.length) {
      const i = stored.values.findIndex((v) => sameValue(v, value));
      return i < 0 ? [value] : [stored.values[i], stored.human_readable_values[i] ?? String(stored.values[i])];
    }
    const display = await this.displayField(field);
    if (display) return this.data.remapping(caller, field.id, display.id, value);
    if (!COMPARABLE.has(field.base_type)) return [value];
    const found = await this.data.remapping(caller, field.id, field.id, value);
    return found.length > 1 ? [found[0]] : [value];
  }
}

/** A stored value and a query-string value: the same text, or the same number. */
function sameValue(stored: unknown, value: string): boolean {
  if (typeof stored === 'number') return /\S/.test(value) && Number(value) === stored;
  return stored !== null && stored !== undefined && String(stored) === value;
}
