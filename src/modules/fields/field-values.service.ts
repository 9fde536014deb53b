import { Injectable, Optional } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { isAdmin, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import { WarehouseDatabase } from '../../schema/database.entity';
import { SyncService } from '../sync';
import { WarehouseField } from '../../schema/field.entity';
import { valuePairs } from './field-hydrator';
import { isa } from './field-types';
import { FieldValuesDto } from './fields.dto';
import { FieldsRepository } from './fields.repository';
import { MetadataAccess } from './metadata-access.service';
import { RowSecurityService } from '../row-security';
import { distinctQuery, PolicyLookups } from './policy-lookups';

const LIST = new Set(['list', 'auto-list']);
const NO_VALUES_VISIBILITY = new Set(['retired', 'sensitive', 'hidden', 'details-only']);
/** Values listed for a restricted caller (the stored lists' cap, sync's FIELD_VALUES_MAX). */
export const RESTRICTED_VALUES_MAX = 1000;
const REMAPPABLE_SEMANTICS = ['type/Category', 'type/City', 'type/State', 'type/Country'];

export const NOT_REMAPPABLE =
  'You can only update the human readable values of a mapped values of a Field whose value of `has_field_values` is `list`' +
  " or whose semantic type is 'category'/'city'/'state'/'country' or whose 'base_type' is 'type/Boolean'.";
export const PARTIAL_REMAPPING = 'If remapped values are specified, they must be specified for all field values';

/** Metabase's field-should-have-field-values?: a visible, non-temporal field set to list its values. */
export function hasListValues(f: WarehouseField): boolean {
  return LIST.has(f.has_field_values) && !NO_VALUES_VISIBILITY.has(f.visibility_type) && !isa(f.base_type, 'type/Temporal');
}

/** The spec's categories, plus list fields as Metabase allows (its data-model editor remaps those too). */
function remappable(f: WarehouseField): boolean {
  return REMAPPABLE_SEMANTICS.some((t) => isa(f.semantic_type, t)) || f.base_type === 'type/Boolean' || hasListValues(f);
}

/** The stored value lists of fields: reading (scanned on first use), remapping, rescanning, discarding. */
@Injectable()
export class FieldValuesService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly repo: FieldsRepository,
    private readonly sync: SyncService,
    private readonly lookups: PolicyLookups,
    @Optional() private readonly rowSecurity?: RowSecurityService,
  ) {}

  async values(caller: Reader, id: number) {
    const { field, db } = await this.access.field(caller, id, 'read');
    if (field.visibility_type === 'sensitive' && !isAdmin(caller)) throw new ForbiddenError();
    if (!hasListValues(field)) return { field_id: id, values: [], has_more_values: false };
    // The stored list holds every row's values: a caller restricted by a row policy gets those of their rows.
    if (await this.rowSecurity?.restricts(caller, db.id, field.table_id)) return this.restrictedValues(caller, db, field);
    let [stored] = await this.repo.values([id]);
    if (!stored) {
      await this.scan(db, [id]);
      [stored] = await this.repo.values([id]);
    }
    return { field_id: id, values: valuePairs(stored), has_more_values: stored?.has_more_values ?? false };
  }

  /**
   * The distinct values of the field in the rows the caller may read, by a query through the engine, with the
   * human-readable names of the stored list for those values (Metabase's sandboxed FieldValues).
   */
  private async restrictedValues(caller: Reader, db: WarehouseDatabase, field: WarehouseField) {
    const max = RESTRICTED_VALUES_MAX;
    const [rows, [stored]] = await Promise.all([
      this.lookups.rows(caller, distinctQuery(db.id, field.table_id, field.id, max), max + 1),
      this.repo.values([field.id]),
    ]);
    const names = new Map(valuePairs(stored).flatMap((p) => (p.length > 1 ? [[JSON.stringify(p[0]), p[1]] as const] : [])));
    const values = rows.slice(0, max).map((r) => {
      const key = JSON.stringify(r[0]);
      return names.has(key) ? [r[0], names.get(key)] : [r[0]];
    });
    return { field_id: field.id, values, has_more_values: rows.length > max };
  }

  /** Replaces the value list with the given values and, when every pair has one, their human-readable names. */
  async setValues(caller: AuthUser, id: number, dto: FieldValuesDto) {
    const { field } = await this.access.field(caller, id, 'write');
    if (!remappable(field)) throw new MessageError(NOT_REMAPPABLE);
    const pairs = dto.values;
    const withHuman = pairs.every((p) => p.length === 2);
    if (!withHuman && !pairs.every((p) => p.length === 1)) throw new MessageError(PARTIAL_REMAPPING);
    await this.repo.saveValues(
      id,
      pairs.map((p) => p[0]),
      withHuman && pairs.length > 0 ? pairs.map((p) => p[1] as string) : null,
    );
    return { status: 'success' };
  }

  async rescan(caller: AuthUser, id: number) {
    const { field, db } = await this.access.field(caller, id, 'write');
    if (hasListValues(field)) await this.scan(db, [id]);
    return { status: 'success' };
  }

  async discard(caller: AuthUser, id: number) {
    await this.access.field(caller, id, 'write');
    await this.sync.discardValues([id]);
    return { status: 'success' };
  }

  /** Forgets a field's value list (when it stops being a list field). */
  async discardQuietly(id: number): Promise<void> {
    await this.sync.discardValues([id]);
  }

  /** Reads the value lists of the given fields from the warehouse now (its failures are answered by the exception filter). */
  async scan(db: WarehouseDatabase, fieldIds: number[]): Promise<void> {
    await this.sync.refreshValues(db, fieldIds);
  }
}
