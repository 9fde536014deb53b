import { Injectable, OnModuleInit } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { normalizeInner } from '../../query-engine/mbql/normalize';
import type { InnerQuery } from '../../query-engine/mbql/types';
import { parseJson } from '../../common/database/stored-json';
import { entityId } from '../../common/database/entity-id';
import { EventBus } from '../../common/events/event-bus';
import { SegmentMetricDefinitionQuery } from '../content';
import { offerRevisionTarget, RevisionService } from '../revisions';
import { accessIn, DatabaseAccessService } from '../warehouse';
import type { CreateSegmentMetricDto, UpdateSegmentMetricDto } from './segments-and-metrics.dto';
import { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import { SegmentMetricHydrator } from './segment-metric-hydrator';
import { SegmentOrMetric, CLEARABLE, SegmentMetricKind, SET_WHEN_GIVEN } from './segment-metric-kind';
import { describeSegmentMetricChange, segmentMetricSnapshot, restorable } from './segment-metric-snapshot';

/** Metabase: "A Metric can have a maximum of 3 important fields." */
const MAX_IMPORTANT_FIELDS = 3;

/**
 * Legacy segments and metrics: stored, changed, archived and reverted with a revision each time; read by whoever may
 * query their table's database, written by admins. They answer the query engine's SegmentMetricDefinitionQuery (through
 * the event bus) so that `["segment", id]` and `["metric", id]` expand to their definitions, and the revisions
 * module's RevisionTargetQuery for reverts.
 */
@Injectable()
export class SegmentsAndMetricsService implements OnModuleInit {
  constructor(
    private readonly repo: SegmentsAndMetricsRepository,
    private readonly hydrator: SegmentMetricHydrator,
    private readonly access: DatabaseAccessService,
    private readonly revisions: RevisionService,
    private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    for (const model of ['segment', 'metric'] as const) {
      offerRevisionTarget(this.bus, model, {
        assertRead: async (user, id) => void (await this.readable(user, model, id)),
        assertWrite: async (user, id) => {
          await this.existing(model, id);
          if (!user.isSuperuser) throw new ForbiddenError();
        },
        describe: (before, after) => describeSegmentMetricChange(model, before, after),
        restore: async (tx, _user, id, snapshot) => {
          await this.repo.update(tx, model, id, restorable(model, snapshot));
          return segmentMetricSnapshot(model, (await this.repo.find(model, id, tx))!);
        },
      });
    }
    this.bus.answer(SegmentMetricDefinitionQuery, async ({ kind, id }) => {
      const m = await this.repo.find(kind, id);
      return m ? { id: m.id, tableId: m.table_id, name: m.name, definition: parseJson<InnerQuery>(m.definition, {}) } : null;
    });
  }

  /** GET /api/segment/, GET /api/metric/: the unarchived ones on databases the caller may query. */
  async list(caller: AuthUser, model: SegmentMetricKind) {
    const rows = await this.repo.active(model);
    const tables = new Map((await this.repo.tables(rows.map((r) => r.table_id))).map((t) => [t.id, t]));
    const map = await this.access.accessMap(caller);
    const readable = rows.filter((r) => {
      const t = tables.get(r.table_id);
      return t !== undefined && accessIn(map, t.db_id).data === 'unrestricted';
    });
    return this.hydrator.views(model, readable, { databaseIds: true });
  }

  /**
   * The unarchived segments or metrics of a table, hydrated; the caller's access to the table is the caller's check.
   * (The table, field, card and dataset answers ask SegmentsMetricsOfTablesQuery, which does the same for many tables in one query.)
   */
  async onTable(model: SegmentMetricKind, tableId: number) {
    return this.hydrator.views(model, await this.repo.active(model, tableId));
  }

  async get(caller: AuthUser, model: SegmentMetricKind, id: number) {
    return this.hydrator.view(model, await this.readable(caller, model, id));
  }

  /** The row, when the caller may query its table's database: unknown is 404, no data access 403. */
  async readable(caller: AuthUser, model: SegmentMetricKind, id: number): Promise<SegmentOrMetric> {
    const row = await this.existing(model, id);
    const [table] = await this.repo.tables([row.table_id]);
    if (!table) throw new NotFoundError();
    await this.access.assertCanRead(caller, table.db_id);
    return row;
  }

  /** POST (the admin guard has let the caller through). */
  async create(caller: AuthUser, model: SegmentMetricKind, body: CreateSegmentMetricDto) {
    const [table] = await this.repo.tables([body.table_id]);
    if (!table) throw ValidationError.of('table_id', 'Table does not exist.', body.table_id);
    const definition = normalizeDefinition(body.definition);
    const id = await this.repo.transaction(async (tx) => {
      const saved = await this.repo.insert(tx, model, {
        table_id: table.id,
        creator_id: caller.id,
        name: body.name,
        description: body.description ?? null,
        definition: JSON.stringify(definition),
        entity_id: entityId(),
      });
      const row = (await this.repo.find(model, saved.id, tx))!;
      await this.revisions.record(tx, {
        model,
        modelId: row.id,
        userId: caller.id,
        snapshot: segmentMetricSnapshot(model, row),
        isCreation: true,
      });
      return row.id;
    });
    return this.hydrator.view(model, await this.existing(model, id));
  }

  /**
   * PUT (and the deprecated DELETE, as `{archived: true}`): the keys Metabase clears with null are set when present,
   * the others only when non-null; a revision with `revision_message` is written when anything changed.
   */
  async update(caller: AuthUser, model: SegmentMetricKind, id: number, body: UpdateSegmentMetricDto) {
    const existing = await this.existing(model, id);
    const given = body as unknown as Record<string, unknown>;
    const changes: Record<string, unknown> = {};
    for (const k of CLEARABLE[model]) if (given[k] !== undefined) changes[k] = given[k] ?? null;
    for (const k of SET_WHEN_GIVEN)
      if (given[k] !== undefined && given[k] !== null)
        changes[k] = k === 'definition' ? JSON.stringify(normalizeDefinition(given[k])) : given[k];
    await this.repo.transaction(async (tx) => {
      const before = segmentMetricSnapshot(model, existing);
      await this.repo.update(tx, model, id, changes as Partial<SegmentOrMetric>);
      const after = segmentMetricSnapshot(model, (await this.repo.find(model, id, tx))!);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        await this.revisions.record(tx, { model, modelId: id, userId: caller.id, snapshot: after, message: body.revision_message });
      }
    });
    return this.hydrator.view(model, await this.existing(model, id));
  }

  revisionsOf(caller: AuthUser, model: SegmentMetricKind, id: number) {
    return this.revisions.list(caller, model, id);
  }

  revert(caller: AuthUser, model: SegmentMetricKind, id: number, revisionId: number) {
    return this.revisions.revert(caller, model, id, revisionId);
  }

  /** PUT /api/metric/:id/important_fields: at most three fields, the stored set made equal to the one sent. */
  async setImportantFields(metricId: number, fieldIds: number[]) {
    await this.existing('metric', metricId);
    const wanted = [...new Set(fieldIds)];
    if (wanted.length > MAX_IMPORTANT_FIELDS) throw new MessageError('A Metric can have a maximum of 3 important fields.');
    const known = new Set((await this.repo.fields(wanted)).map((f) => f.id));
    const unknown = wanted.find((f) => !known.has(f));
    if (unknown !== undefined) throw ValidationError.of('important_field_ids', 'Field does not exist.', unknown);
    await this.repo.transaction(async (tx) => {
      const current = await this.repo.importantFieldIds(tx, metricId);
      await this.repo.setImportantFields(
        tx,
        metricId,
        current.filter((f) => !wanted.includes(f)),
        wanted.filter((f) => !current.includes(f)),
      );
    });
    return { success: true };
  }

  private async existing(model: SegmentMetricKind, id: number): Promise<SegmentOrMetric> {
    const row = await this.repo.find(model, id);
    if (!row) throw new NotFoundError();
    return row;
  }
}

/** A definition as the query engine reads it (Metabase's normalize-fragment): clause names and keys in normal form. */
function normalizeDefinition(definition: unknown): InnerQuery {
  return normalizeInner(definition as Record<string, unknown>);
}
