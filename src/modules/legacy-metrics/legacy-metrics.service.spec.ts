import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import type { ContentStores, ContentRegistry } from '../dataset/content.registry';
import type { RecordRevision, RevisionService } from '../revisions/revision.service';
import type { RevisionTarget } from '../revisions/revision-targets';
import type { DatabaseAccessService } from '../warehouse/database-access.service';
import type { LegacyMetricsRepository } from './legacy-metrics.repository';
import { LegacyMetricsService } from './legacy-metrics.service';
import type { MacroHydrator } from './macro-hydrator';
import type { AnyMacro } from './macro-model';

const admin: AuthUser = { id: 1, isSuperuser: true, groupIds: [] };
const reader: AuthUser = { id: 2, isSuperuser: false, groupIds: [1] };
const tx = {} as EntityManager;

/** The service over an in-memory table of metrics, with what it recorded and registered kept for the checks. */
function setup() {
  const rows = new Map<number, AnyMacro>();
  rows.set(1, {
    id: 1, table_id: 5, creator_id: 1, name: 'Revenue', description: 'Old', archived: false, definition: '{"aggregation":[["sum",["field",3,null]]]}',
    caveats: 'c', points_of_interest: null, show_in_getting_started: false, entity_id: 'e', how_is_this_calculated: null, created_at: new Date(), updated_at: new Date(),
  });
  const important = new Set<number>([7]);
  const recorded: RecordRevision[] = [];
  const targets = new Map<string, RevisionTarget>();
  let stores: Partial<ContentStores> = {};
  const repo = {
    transaction: (work: (t: EntityManager) => Promise<unknown>) => work(tx),
    find: async (_m: string, id: number) => (rows.has(id) ? { ...rows.get(id)! } : null),
    update: async (_t: EntityManager, _m: string, id: number, changes: Partial<AnyMacro>) => void rows.set(id, { ...rows.get(id)!, ...changes }),
    tables: async (ids: number[]) => ids.filter((i) => i === 5).map((id) => ({ id, db_id: 9 })),
    fields: async (ids: number[]) => ids.filter((i) => i < 100).map((id) => ({ id })),
    importantFieldIds: async () => [...important],
    setImportantFields: async (_t: EntityManager, _id: number, remove: number[], add: number[]) => {
      remove.forEach((f) => important.delete(f));
      add.forEach((f) => important.add(f));
    },
  } as unknown as LegacyMetricsRepository;
  const hydrator = { view: async (_m: string, r: AnyMacro) => r } as unknown as MacroHydrator;
  const access = { assertCanRead: async (u: AuthUser) => { if (!u.isSuperuser) throw new Error('forbidden'); } } as unknown as DatabaseAccessService;
  const revisions = { register: (m: string, t: RevisionTarget) => targets.set(m, t), record: async (_t: EntityManager, r: RecordRevision) => void recorded.push(r) } as unknown as RevisionService;
  const content = { provide: (s: Partial<ContentStores>) => (stores = { ...stores, ...s }) } as unknown as ContentRegistry;
  const service = new LegacyMetricsService(repo, hydrator, access, revisions, content);
  service.onModuleInit();
  return { service, rows, important, recorded, targets, stores: () => stores };
}

describe('LegacyMetricsService', () => {
  it('sets the keys Metabase clears with null when present, the others only when non-null, and normalizes definitions', async () => {
    const { service, rows } = setup();
    await service.update(admin, 'metric', 1, { revision_message: 'm', name: null, description: null, caveats: undefined, how_is_this_calculated: 'Sum', definition: { aggregation: ['SUM', ['field-id', 3]] } });
    expect(rows.get(1)).toMatchObject({ name: 'Revenue', description: null, caveats: 'c', how_is_this_calculated: 'Sum' });
    expect(JSON.parse(rows.get(1)!.definition)).toEqual({ aggregation: [['sum', ['field', 3, null]]] });
  });

  it('writes a revision with the message only when something changed', async () => {
    const { service, recorded } = setup();
    await service.update(admin, 'metric', 1, { revision_message: 'nothing', name: 'Revenue' });
    expect(recorded).toEqual([]);
    await service.update(admin, 'metric', 1, { revision_message: 'archive', archived: true });
    expect(recorded).toEqual([expect.objectContaining({ model: 'metric', modelId: 1, userId: 1, message: 'archive', snapshot: expect.objectContaining({ archived: true }) })]);
  });

  it('registers both kinds for revisions: writes need an admin, reverts restore the snapshot', async () => {
    const { targets, rows } = setup();
    expect([...targets.keys()]).toEqual(['segment', 'metric']);
    const metric = targets.get('metric')!;
    await expect(metric.assertWrite(reader, 1)).rejects.toMatchObject({ status: 403 });
    await expect(metric.assertWrite(admin, 99)).rejects.toMatchObject({ status: 404 });
    await expect(metric.assertRead(reader, 1)).rejects.toThrow('forbidden');
    const restored = await metric.restore(tx, admin, 1, { name: 'Back', description: null, archived: false, definition: { aggregation: [['count']] }, caveats: null, points_of_interest: null, how_is_this_calculated: null, show_in_getting_started: true });
    expect(restored).toMatchObject({ name: 'Back', definition: { aggregation: [['count']] }, show_in_getting_started: true, table_id: 5 });
    expect(rows.get(1)).toMatchObject({ name: 'Back', caveats: null });
    expect(metric.describe({ name: 'A', definition: 1 }, { name: 'B', definition: 2 })).toBe('renamed this Metric from "A" to "B" and modified the definition.');
  });

  it('hands the query engine each definition, parsed, and null for unknown ids', async () => {
    const { stores } = setup();
    await expect(stores().metric!(1)).resolves.toEqual({ id: 1, tableId: 5, name: 'Revenue', definition: { aggregation: [['sum', ['field', 3, null]]] } });
    await expect(stores().segment!(42)).resolves.toBeNull();
  });

  it('keeps the important fields equal to the set sent, at most three, all known', async () => {
    const { service, important } = setup();
    await expect(service.setImportantFields(1, [1, 2, 3, 4])).rejects.toMatchObject({ message: 'A Metric can have a maximum of 3 important fields.' });
    await expect(service.setImportantFields(1, [1, 500])).rejects.toMatchObject({ status: 400 });
    await expect(service.setImportantFields(1, [8, 9, 8])).resolves.toEqual({ success: true });
    expect([...important].sort()).toEqual([8, 9]);
  });
});
