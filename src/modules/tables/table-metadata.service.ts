import { Injectable, Optional } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { FieldHydrator, FieldsRepository, MetadataAccess, tableView } from '../fields';
import { CardMetadataQuery, segmentsMetricsOf } from '../content';
import { EventBus } from '../../common/events/event-bus';
import { RowSecurityService } from '../row-security';
import { DIMENSION_OPTIONS, fieldDimensionOptions } from './dimension-options';
import { ROOT_COLLECTION_SCHEMA, virtualField } from './virtual-field';

export interface MetadataFlags {
  includeSensitive: boolean;
  includeHidden: boolean;
  editable: boolean;
}

/** What the query builder loads for a table (or a saved question used as one): the fields and how to use them. */
@Injectable()
export class TableMetadataService {
  constructor(
    private readonly access: MetadataAccess,
    private readonly fields: FieldsRepository,
    private readonly hydrator: FieldHydrator,
    private readonly bus: EventBus,
    @Optional() private readonly rowSecurity?: RowSecurityService,
  ) {}

  /**
   * Retired fields never show; hidden ones only when asked, sensitive ones only when an admin asks. `editable` is
   * the admin data-model editor's view and needs write permission; otherwise data access is enough.
   */
  async queryMetadata(caller: AuthUser, id: number, flags: MetadataFlags) {
    const { table, db } = await this.access.table(caller, id, flags.editable ? 'write' : 'read');
    // A display preference of the admin's data-model editor: ignored for everybody else.
    const includeSensitive = flags.includeSensitive && caller.isSuperuser;
    // A question policy shows its question's columns only.
    const visible = (await this.rowSecurity?.visibleFields(caller, table.db_id, id)) ?? null;
    // Stored value lists hold every row's values: not for a caller restricted by a row policy.
    const restricted = (await this.rowSecurity?.restricts(caller, table.db_id, id)) ?? false;
    const shown = (await this.fields.activeFields([id])).filter((f) => {
      if (visible && !visible.has(f.id)) return false;
      if (f.visibility_type === 'retired') return false;
      if (f.visibility_type === 'hidden') return flags.includeHidden;
      if (f.visibility_type === 'sensitive') return includeSensitive;
      return true;
    });
    const dbView = await this.access.dbView(caller, db, true);
    const binning = dbView.features.includes('binning');
    const [hydrated, segments, metrics] = await Promise.all([
      this.hydrator.detailed(shown, { values: !restricted, includeSensitive }),
      segmentsMetricsOf(this.bus, 'segment', [id]),
      segmentsMetricsOf(this.bus, 'metric', [id]),
    ]);
    const fields = hydrated.map((f) => ({ ...f, ...fieldDimensionOptions(f, binning) }));
    return {
      ...tableView(table),
      db: dbView,
      fields,
      segments: segments.get(id) ?? [],
      metrics: metrics.get(id) ?? [],
      dimension_options: DIMENSION_OPTIONS,
    };
  }

  /**
   * The virtual table of a saved question: its result columns, enriched from the warehouse fields they come from.
   * Segments and metrics are defined on warehouse tables only, so its lists stay empty (as in Metabase).
   */
  async cardQueryMetadata(caller: AuthUser, cardId: number) {
    const card = (await this.bus.askOne(new CardMetadataQuery(cardId, caller))) ?? null;
    if (!card) throw new NotFoundError();
    const fieldIds = card.result_metadata.map((c) => c.id).filter((x): x is number => typeof x === 'number');
    const underlying = new Map(
      (
        await this.hydrator.detailed(
          (await this.fields.fieldsByIds(fieldIds)).filter((f) => f.active),
          { includeSensitive: caller.isSuperuser },
        )
      ).map((f) => [f.id, f]),
    );
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
      fields: card.result_metadata.map((col) =>
        virtualField(col, tableId, underlying.get(col.id as number), card.type === 'model' && card.is_native === true),
      ),
      segments: [],
      metrics: [],
      dimension_options: DIMENSION_OPTIONS,
    };
  }
}
