import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, ValidationError } from '../../common/errors/api-errors';
import { contextForms, rankBySimilarity, similarity, type SegmentMetricView, segmentsMetricsOf } from '../content';
import { EventBus } from '../../common/events/event-bus';
import { WarehouseDatabase } from '../../schema/database.entity';
import { chooseHasFieldValues } from '../sync';
import { WarehouseField } from '../../schema/field.entity';
import { dimensionView, FieldHydrator, fieldView } from './field-hydrator';
import { coercedType, isa } from './field-types';
import { FieldValuesService } from './field-values.service';
import { DimensionDto, UpdateFieldDto } from './fields.dto';
import { FieldsRepository } from './fields.repository';
import { MetadataAccess, tableView } from './metadata-access.service';

/** The largest id an app-DB row can have; a bigger one names nothing (and would overflow a Postgres integer). */
const MAX_ID = 2_147_483_647;
const LIST = new Set(['list', 'auto-list']);
const TEXT_KEYS = ['description', 'points_of_interest', 'caveats'] as const;
/** How many segments and metrics the related answer lists at most (Metabase's related API: 3 best and 2 other matches). */
const RELATED_MAX = 5;

@Injectable()
export class FieldsService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly repo: FieldsRepository,
    private readonly hydrator: FieldHydrator,
    private readonly fieldValues: FieldValuesService,
    private readonly bus: EventBus,
  ) {}

  /** The field with its table (and database), FK target, dimensions and name field. */
  async get(caller: AuthUser, id: number, editable: boolean) {
    const { field, table, db } = await this.access.field(caller, id, editable ? 'write' : 'read');
    // As its values: a sensitive field is for admins only.
    if (field.visibility_type === 'sensitive' && !caller.isSuperuser) throw new ForbiddenError();
    const [detailed] = await this.hydrator.detailed([field], { includeSensitive: caller.isSuperuser });
    return { ...detailed, table: await this.access.tableWithDb(caller, table, db, !editable) };
  }

  /**
   * Applies the keys present in the body (null clears, except display_name and settings, which null leaves alone,
   * as in Metabase), records them in `user_edited` so sync keeps them, and keeps dependent state consistent:
   * leaving type/FK drops the target and the FK remapping, and switching value lists on or off scans or discards.
   */
  async update(caller: AuthUser, id: number, dto: UpdateFieldDto) {
    const { field, db } = await this.access.field(caller, id, 'write');
    const changes: Partial<WarehouseField> = {};
    const edited = new Set(field.user_edited ?? []);
    const set = <K extends keyof WarehouseField>(key: K, value: WarehouseField[K]) => {
      changes[key] = value;
      edited.add(key);
    };
    if (dto.display_name !== undefined && dto.display_name !== null) set('display_name', dto.display_name);
    for (const key of TEXT_KEYS) if (dto[key] !== undefined) set(key, dto[key] ?? null);
    if (dto.visibility_type !== undefined) set('visibility_type', dto.visibility_type ?? 'normal');
    if (dto.settings !== undefined && dto.settings !== null) set('settings', dto.settings);
    if (dto.nfc_path !== undefined) set('nfc_path', dto.nfc_path ?? null);
    if (dto.json_unfolding !== undefined) set('json_unfolding', dto.json_unfolding ?? null);
    if (dto.coercion_strategy !== undefined) {
      // A strategy that does not fit the base type is dropped, as Metabase does.
      const effective = dto.coercion_strategy ? coercedType(dto.coercion_strategy, field.base_type) : null;
      set('coercion_strategy', effective ? dto.coercion_strategy : null);
      changes.effective_type = effective ?? field.base_type;
    }
    const semantic = dto.semantic_type !== undefined ? (dto.semantic_type ?? null) : field.semantic_type;
    if (dto.semantic_type !== undefined) set('semantic_type', semantic);
    const removedFk = semantic !== field.semantic_type && isa(field.semantic_type, 'type/FK') && !isa(semantic, 'type/FK');
    if (dto.fk_target_field_id !== undefined && dto.fk_target_field_id !== null) await this.checkTarget(dto.fk_target_field_id, db);
    if (removedFk) set('fk_target_field_id', null);
    else if (dto.fk_target_field_id !== undefined) set('fk_target_field_id', dto.fk_target_field_id ?? null);
    if (dto.has_field_values === null) {
      // null hands the choice back to sync.
      edited.delete('has_field_values');
      const distinct = field.fingerprint?.global['distinct-count'] ?? Number.MAX_SAFE_INTEGER;
      changes.has_field_values = chooseHasFieldValues({ ...field, user_edited: null }, distinct, semantic);
    } else if (dto.has_field_values !== undefined) {
      set('has_field_values', dto.has_field_values);
    }
    changes.user_edited = [...edited];

    await this.repo.transaction(async (tx) => {
      await this.repo.updateField(id, changes, tx);
      if (removedFk) await this.repo.deleteDimension(id, 'external', tx);
      else if (changes.display_name !== undefined && changes.display_name !== field.display_name)
        await this.repo.renameDimension(id, changes.display_name, tx);
    });
    const updated = (await this.repo.findField(id))!;
    if (updated.visibility_type === 'sensitive') {
      // Its scanned values are what marking it sensitive hides: they go (and sync never scans it again).
      await this.fieldValues.discardQuietly(id);
    } else if (changes.has_field_values !== undefined && changes.has_field_values !== field.has_field_values) {
      if (LIST.has(updated.has_field_values)) await this.fieldValues.scan(db, [id]);
      else await this.fieldValues.discardQuietly(id);
    }
    const [detailed] = await this.hydrator.detailed([updated], { includeSensitive: true });
    return detailed;
  }

  /**
   * The field's table, its other visible fields, and the table's segments and metrics, those using the field first
   * (Metabase's related API: metrics only when they use it), at most RELATED_MAX of each.
   */
  async related(caller: AuthUser, id: number) {
    const { field, table } = await this.access.field(caller, id, 'read');
    const [fields, segments, metrics] = await Promise.all([
      this.repo.activeFields([table.id]),
      segmentsMetricsOf(this.bus, 'segment', [table.id]),
      segmentsMetricsOf(this.bus, 'metric', [table.id]),
    ]);
    const others = fields.filter((f) => f.id !== field.id && f.visibility_type === 'normal');
    const self = ['field', field.id];
    const usesField = (m: SegmentMetricView) => similarity(contextForms(self), contextForms(m.definition)) > 0;
    const ranked = (list: SegmentMetricView[]) => rankBySimilarity(self, list, (m) => m.definition, RELATED_MAX);
    return {
      table: tableView(table),
      fields: others.map(fieldView),
      segments: ranked(segments.get(table.id) ?? []),
      metrics: ranked((metrics.get(table.id) ?? []).filter(usesField)),
    };
  }

  /** Upserts the field's remapping: `internal` through its value list, `external` through a field of the FK's table. */
  async setDimension(caller: AuthUser, id: number, dto: DimensionDto) {
    const { field } = await this.access.field(caller, id, 'write');
    let humanReadable: number | null = null;
    if (dto.type === 'external') {
      if (!dto.human_readable_field_id) throw new MessageError('Foreign key based remappings require a human readable field id');
      humanReadable = await this.checkHumanReadable(field, dto.human_readable_field_id);
    }
    return dimensionView(
      await this.repo.saveDimension(id, { type: dto.type, name: dto.name.trim(), human_readable_field_id: humanReadable }),
    );
  }

  async deleteDimension(caller: AuthUser, id: number): Promise<void> {
    await this.access.field(caller, id, 'write');
    await this.repo.deleteDimension(id);
  }

  /** An FK may only point at a field of the same database: search and remapping query both tables there. */
  private async checkTarget(targetId: number, db: WarehouseDatabase): Promise<void> {
    const target = targetId <= MAX_ID ? await this.repo.findField(targetId) : null;
    const table = target ? await this.repo.findTable(target.table_id) : null;
    if (!target || table?.db_id !== db.id) throw ValidationError.of('fk_target_field_id', 'Invalid target field', targetId);
  }

  private async checkHumanReadable(field: WarehouseField, humanReadableId: number): Promise<number> {
    if (!isa(field.semantic_type, 'type/FK') || field.fk_target_field_id === null) {
      throw new MessageError('Foreign key based remappings require the field to be a foreign key.');
    }
    const found = await this.repo.fieldsByIds([field.fk_target_field_id, humanReadableId].filter((n) => n <= MAX_ID));
    const byId = new Map(found.map((f) => [f.id, f]));
    const hr = byId.get(humanReadableId);
    const tgt = byId.get(field.fk_target_field_id);
    if (!hr || !hr.active || !tgt || hr.table_id !== tgt.table_id) {
      throw new MessageError('The human readable field must be a field of the table the foreign key points to.');
    }
    return hr.id;
  }
}
