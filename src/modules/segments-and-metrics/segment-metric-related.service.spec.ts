import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { WarehouseTable } from '../../schema/table.entity';
import type { CollectionAccessService } from '../collections';
import type { SegmentMetricHydrator } from './segment-metric-hydrator';
import type { SegmentMetricKind, SegmentOrMetric } from './segment-metric-kind';
import { RELATED_MAX, SegmentMetricRelatedService } from './segment-metric-related.service';
import type { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import type { SegmentsAndMetricsService } from './segments-and-metrics.service';

/** SegmentMetricRelatedService: the lists around a segment or legacy metric; its service, repository and hydrator mocked. */
describe('SegmentMetricRelatedService', () => {
  const user: AuthUser = { id: 7, isSuperuser: false, groupIds: [1] };
  const field = (id: number) => ['field', id, null];

  const row = (id: number, definition: Record<string, unknown>): SegmentOrMetric => ({
    id,
    table_id: 5,
    creator_id: 1,
    name: `n${id}`,
    description: null,
    archived: false,
    definition: JSON.stringify({ 'source-table': 5, ...definition }),
    caveats: null,
    points_of_interest: null,
    show_in_getting_started: false,
    entity_id: `e${id}`,
    how_is_this_calculated: null,
    created_at: new Date('2024-01-01T00:00:00Z'),
    updated_at: new Date('2024-01-01T00:00:00Z'),
  });
  const table = (id: number) =>
    ({
      id,
      db_id: 1,
      schema: 'PUBLIC',
      name: `T${id}`,
      display_name: `T${id}`,
      active: true,
      created_at: new Date('2024-01-01T00:00:00Z'),
      updated_at: new Date('2024-01-01T00:00:00Z'),
    }) as unknown as WarehouseTable;

  function setup(self: SegmentOrMetric, active: Record<SegmentMetricKind, SegmentOrMetric[]>, tables = [table(5)]) {
    const service = { readable: jest.fn().mockResolvedValue(self) };
    const repo = {
      tables: jest.fn().mockResolvedValue(tables),
      active: jest.fn(async (kind: SegmentMetricKind) => active[kind]),
      linkedTables: jest.fn(async (_t: number, direction: 'from' | 'to') => (direction === 'from' ? [table(6)] : [table(8)])),
      cardsOnTable: jest
        .fn()
        .mockResolvedValue([{ id: 3, name: 'Q', description: null, display: 'bar', type: 'question', collection_id: null }]),
    };
    const hydrator = { views: jest.fn(async (_k: SegmentMetricKind, rows: SegmentOrMetric[]) => rows.map((r) => ({ id: r.id }))) };
    const collections = { readableWhere: jest.fn().mockResolvedValue(TRUE) };
    const related = new SegmentMetricRelatedService(
      service as unknown as SegmentsAndMetricsService,
      repo as unknown as SegmentsAndMetricsRepository,
      hydrator as unknown as SegmentMetricHydrator,
      collections as unknown as CollectionAccessService,
    );
    return { related, service, repo, hydrator, collections };
  }

  it("answers a metric's table, its table's others most alike first (itself left out), the linked tables and cards", async () => {
    const self = row(1, { aggregation: [['sum', field(3)]] });
    const m = setup(self, {
      metric: [row(2, { aggregation: [['count']] }), self, row(4, { aggregation: [['avg', field(3)]] })],
      segment: [row(1, { filter: ['=', field(9), 1] }), row(11, { filter: ['>', field(3), 0] })],
    });
    const r = await m.related.related(user, 'metric', 1);

    expect(m.service.readable).toHaveBeenCalledWith(user, 'metric', 1);
    expect(m.repo.tables).toHaveBeenCalledWith([5]);
    expect(m.repo.active).toHaveBeenCalledWith('metric', 5);
    expect(m.repo.active).toHaveBeenCalledWith('segment', 5);
    expect(r.table).toMatchObject({ id: 5, name: 'T5' });
    expect(r.metrics).toEqual([{ id: 4 }, { id: 2 }]);
    // A segment sharing the metric's id is another object: only the metric itself is left out.
    expect(r.segments).toEqual([{ id: 11 }, { id: 1 }]);
    expect(m.repo.linkedTables).toHaveBeenCalledWith(5, 'from', RELATED_MAX);
    expect(m.repo.linkedTables).toHaveBeenCalledWith(5, 'to', RELATED_MAX);
    expect(r['linked-from'].map((t) => t.id)).toEqual([6]);
    expect(r['linking-to'].map((t) => t.id)).toEqual([8]);
    expect(m.collections.readableWhere).toHaveBeenCalledWith(user, 'c.collection_id');
    expect(m.repo.cardsOnTable).toHaveBeenCalledWith(5, TRUE, RELATED_MAX);
    expect(r.cards).toEqual([{ id: 3, name: 'Q', description: null, display: 'bar', type: 'question', collection_id: null }]);
  });

  it('keeps at most RELATED_MAX of each kind', async () => {
    const self = row(1, { filter: ['=', field(3), 1] });
    const many = Array.from({ length: RELATED_MAX + 3 }, (_, i) => row(100 + i, { filter: ['=', field(3), i] }));
    const r = await setup(self, { metric: many, segment: [self, ...many] }).related.related(user, 'segment', 1);
    expect(r.metrics).toHaveLength(RELATED_MAX);
    expect(r.segments).toHaveLength(RELATED_MAX);
    expect(r.segments).not.toContainEqual({ id: 1 });
  });

  it('answers a null table when the table row is gone', async () => {
    const self = row(1, { filter: ['=', field(3), 1] });
    await expect(setup(self, { metric: [], segment: [] }, []).related.related(user, 'segment', 1)).resolves.toMatchObject({
      table: null,
      metrics: [],
      segments: [],
    });
  });

  it('lets the refusal of the object itself through, reading nothing else', async () => {
    for (const refusal of [new NotFoundError(), new ForbiddenError()]) {
      const m = setup(row(1, {}), { metric: [], segment: [] });
      m.service.readable.mockRejectedValue(refusal);
      await expect(m.related.related(user, 'metric', 1)).rejects.toBe(refusal);
      expect(m.repo.active).not.toHaveBeenCalled();
      expect(m.repo.cardsOnTable).not.toHaveBeenCalled();
    }
  });
});
