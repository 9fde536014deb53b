import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { EventBus } from '../../common/events/event-bus';
import { SegmentMetricDefinitionQuery } from '../content/segment-metric-queries';
import type { RecordRevision, RevisionService } from '../revisions/revision.service';
import { RevisionTargetQuery } from '../revisions/revision-targets';
import type { DatabaseAccessService } from '../warehouse/database-access.service';
import type { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import { SegmentsAndMetricsService } from './segments-and-metrics.service';
import type { SegmentMetricHydrator } from './segment-metric-hydrator';
import type { SegmentOrMetric } from './segment-metric-kind';

const admin: AuthUser = { id: 1, isSuperuser: true, groupIds: [] };
const reader: AuthUser = { id: 2, isSuperuser: false, groupIds: [1] };
const tx = {} as EntityManager;

/** The service over an in-memory table of metrics, with what it recorded and the bus it answers on kept for the checks. */
function setup() {
  const rows = new Map<number, SegmentOrMetric>();
  rows.set(1, {
    id: 1,
    table_id: 5,
    creator_id: 1,
    name: 'Revenue',
    description: 'Old',
    archived: false,
    definition: '{"aggregation":[["sum",["field",3,null]]]}',
    caveats: 'c',
    points_of_interest: null,
    show_in_getting_started: false,
    entity_id: 'e',
    how_is_this_calculated: null,
    created_at: new Date(),
    updated_at: new Date(),
  });
  const important = new Set<number>([7]);
  const recorded: RecordRevision[] = [];
  const repo = {
    transaction: (work: (t: EntityManager) => Promise<unknown>) => work(tx),
    find: async (_m: string, id: number) => (rows.has(id) ? { ...rows.get(id)! } : null),
    update: async (_t: EntityManager, _m: string, id: number, changes: Partial<SegmentOrMetric>) =>
      void rows.set(id, { ...rows.get(id)!, ...changes }),
    tables: async (ids: number[]) => ids.filter((i) => i === 5).map((id) => ({ id, db_id: 9 })),
    fields: async (ids: number[]) => ids.filter((i) => i < 100).map((id) => ({ id })),
    importantFieldIds: async () => [...important],
    setImportantFields: async (_t: EntityManager, _id: number, remove: number[], add: number[]) => {
      remove.forEach((f) => important.delete(f));
      add.forEach((f) => important.add(f));
    },
  } as unknown as SegmentsAndMetricsRepository;
  const hydrator = { view: async (_m: string, r: SegmentOrMetric) => r } as unknown as SegmentMetricHydrator;
  const access = {
    assertCanRead: async (u: AuthUser) => {
      if (!u.isSuperuser) throw new Error('forbidden');
    },
  } as unknown as DatabaseAccessService;
  const revisions = {
    record: async (_t: EntityManager, r: RecordRevision) => void recorded.push(r),
  } as unknown as RevisionService;
  const bus = new EventBus();
  const service = new SegmentsAndMetricsService(repo, hydrator, access, revisions, bus);
  service.onModuleInit();
  return { service, rows, important, recorded, bus };
}

describe('SegmentsAndMetricsService', () => {
  it('sets the keys Metabase clears with null when present, the others only when non-null, and normalizes definitions', async () => {
    const { service, rows } = setup();
    await service.update(admin, 'metric', 1, {
      revision_message: 'm',
      name: null,
      description: null,
      caveats: undefined,
      how_is_this_calculated: 'Sum',
      definition: { aggregation: ['SUM', ['field-id', 3]] },
    });
    expect(rows.get(1)).toMatchObject({ name: 'Revenue', description: null, caveats: 'c', how_is_this_calculated: 'Sum' });
    expect(JSON.parse(rows.get(1)!.definition)).toEqual({ aggregation: [['sum', ['field', 3, null]]] });
  });

  it('writes a revision with the message only when something changed', async () => {
    const { service, recorded } = setup();
    await service.update(admin, 'metric', 1, { revision_message: 'nothing', name: 'Revenue' });
    expect(recorded).toEqual([]);
    await service.update(admin, 'metric', 1, { revision_message: 'archive', archived: true });
    expect(recorded).toEqual([
      expect.objectContaining({
        model: 'metric',
        modelId: 1,
        userId: 1,
        message: 'archive',
        snapshot: expect.objectContaining({ archived: true }),
      }),
    ]);
  });

  it('offers both kinds to revisions: writes need an admin, reverts restore the snapshot', async () => {
    const { bus, rows } = setup();
    const target = async (model: string) => (await bus.ask(new RevisionTargetQuery(model))).find((t) => t !== null);
    expect(await target('segment')).toBeDefined();
    expect(await target('card')).toBeUndefined();
    const metric = (await target('metric'))!;
    await expect(metric.assertWrite(reader, 1)).rejects.toMatchObject({ status: 403 });
    await expect(metric.assertWrite(admin, 99)).rejects.toMatchObject({ status: 404 });
    await expect(metric.assertRead(reader, 1)).rejects.toThrow('forbidden');
    const restored = await metric.restore(tx, admin, 1, {
      name: 'Back',
      description: null,
      archived: false,
      definition: { aggregation: [['count']] },
      caveats: null,
      points_of_interest: null,
      how_is_this_calculated: null,
      show_in_getting_started: true,
    });
    expect(restored).toMatchObject({ name: 'Back', definition: { aggregation: [['count']] }, show_in_getting_started: true, table_id: 5 });
    expect(rows.get(1)).toMatchObject({ name: 'Back', caveats: null });
    expect(metric.describe({ name: 'A', definition: 1 }, { name: 'B', definition: 2 })).toBe(
      'renamed this Metric from "A" to "B" and modified the definition.',
    );
  });

  it('hands the query engine each definition, parsed, and null for unknown ids', async () => {
    const { bus } = setup();
    await expect(bus.askOne(new SegmentMetricDefinitionQuery('metric', 1))).resolves.toEqual({
      id: 1,
      tableId: 5,
      name: 'Revenue',
      definition: { aggregation: [['sum', ['field', 3, null]]] },
    });
    await expect(bus.askOne(new SegmentMetricDefinitionQuery('segment', 42))).resolves.toBeNull();
  });

  it('keeps the important fields equal to the set sent, at most three, all known', async () => {
    const { service, important } = setup();
    await expect(service.setImportantFields(1, [1, 2, 3, 4])).rejects.toMatchObject({
      message: 'A Metric can have a maximum of 3 important fields.',
    });
    await expect(service.setImportantFields(1, [1, 500])).rejects.toMatchObject({ status: 400 });
    await expect(service.setImportantFields(1, [8, 9, 8])).resolves.toEqual({ success: true });
    expect([...important].sort()).toEqual([8, 9]);
  });
});
