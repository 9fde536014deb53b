import { Inject, Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { FieldHydrator } from '../fields/field-hydrator';
import { isa } from '../fields/field-types';
import { FieldsRepository } from '../fields/fields.repository';
import { MetadataAccess, tableView } from '../fields/metadata-access.service';
import { CARD_STORE, CardColumn, CardForMetadata, CardStore } from '../content/card-store';
import { DIMENSION_OPTIONS, fieldDimensionOptions } from './dimension-options';

export interface MetadataFlags {
  includeSensitive: boolean;
  includeHidden: boolean;
  editable: boolean;
}

/** Metabase names the schema of root-collection cards so in the saved-questions virtual database. */
const ROOT_COLLECTION_SCHEMA = 'Everything else';

/** What the query builder loads for a table (or a saved question used as one): the fields and how to use them. */
@Injectable()
export class TableMetadataService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly fields: FieldsRepository,
    private readonly hydrator: FieldHydrator,
    @Inject(CARD_STORE) private readonly cards: CardStore,
  ) {}

  /**
   * Retired fields never show; hidden ones only when asked, sensitive ones only when an admin asks. `editable` is
   * the admin data-model editor's view and needs write permission; otherwise data access is enough.
   */
  async queryMetadata(caller: AuthUser, id: number, flags: MetadataFlags) {
    const { table, db } = await this.access.table(caller, id, flags.editable ? 'write' : 'read');
    // A display preference of the admin's data-model editor: ignored for everybody else.
    const includeSensitive = flags.includeSensitive && caller.isSuperuser;
    const shown = (await this.fields.activeFields([id])).filter((f) => {
      if (f.visibility_type === 'retired') return false;
      if (f.visibility_type === 'hidden') return flags.includeHidden;
      if (f.visibility_type === 'sensitive') return includeSensitive;
      return true;
    });
    const dbView = await this.access.dbView(caller, db, true);
    const binning = dbView.features.includes('binning');
    const fields = (await this.hydrator.detailed(shown, { values: true, includeSensitive })).map((f) => ({ ...f, ...fieldDimensionOptions(f, binning) }));
    return {
      ...tableView(table),
      db: dbView,
      fields,
      segments: [],
      metrics: [],
      dimension_options: DIMENSION_OPTIONS,
    };
  }

  /** The virtual table of a saved question: its result columns, enriched from the warehouse fields they come from. */
  async cardQueryMetadata(caller: AuthUser, cardId: number) {
    const card = await this.cards.resultMetadata(cardId, caller);
    if (!card) throw new NotFoundError();
    const fieldIds = card.result_metadata.map((c) => c.id).filter((x): x is number => typeof x === 'number');
    const underlying = new Map((await this.hydrator.detailed((await this.fields.fieldsByIds(fieldIds)).filter((f) => f.active), { includeSensitive: caller.isSuperuser })).map((f) => [f.id, f]));
    const tableId = `card__${card.id}`;
    return {
      id: tableId,
      db_id: card.database_id,
      display_name: card.name,
      schema: card.collection_name ?? ROOT_COLLECTION_SCHEMA,
      moderated_status: card.moderated_status ?? null,
      description: card.description,
      entity_id: card.entity_id ?? null,
      type: card.type,
      fields: card.result_metadata.map((col) => virtualField(col, tableId, underlying.get(col.id as number), card)),
      segments: [],
      metrics: [],
      dimension_options: DIMENSION_OPTIONS,
    };
  }
}

type Hydrated = Awaited<ReturnType<FieldHydrator['detailed']>>[number];

function virtualField(col: CardColumn, tableId: string, field: Hydrated | undefined, card: CardForMetadata) {
  const merged = {
    ...col,
    ...(field
      ? {
          semantic_type: field.semantic_type,
          fk_target_field_id: field.fk_target_field_id,
          has_field_values: field.has_field_values,
          target: field.target,
          dimensions: field.dimensions,
          name_field: field.name_field,
        }
      : {}),
    table_id: tableId,
    id: typeof col.id === 'number' ? col.id : ['field', col.name, { 'base-type': col.base_type ?? 'type/*' }],
  };
  const options = fieldDimensionOptions(
    { base_type: col.base_type ?? 'type/*', effective_type: col.effective_type ?? null, semantic_type: merged.semantic_type ?? null, fingerprint: (col.fingerprint as never) ?? null },
    true,
  );
  // Keys of a nested query confuse the query builder; only a native model's owner-set ones stay.
  const keepKeys = card.type === 'model' && card.is_native === true;
  const isKey = isa(merged.semantic_type, 'type/PK') || isa(merged.semantic_type, 'type/FK');
  const semantic = isKey && !keepKeys && typeof col.id !== 'number' ? null : (merged.semantic_type ?? null);
  return { ...merged, semantic_type: semantic, ...options };
}
