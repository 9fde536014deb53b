import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { WarehouseField } from '../../schema/field.entity';
import type { WarehouseConnections } from '../warehouse';
import type { RowSecurityService } from '../row-security';
import { EventBus } from '../../common/events/event-bus';
import { LookupRowsQuery, PolicyLookups } from './policy-lookups';
import { FieldDataService, SEARCH_MAX } from './field-data.service';
import type { FieldsRepository } from './fields.repository';
import type { MetadataAccess } from './metadata-access.service';

/** FieldDataService: which fields may be read together and what reaches the warehouse; metadata and driver mocked. */
describe('FieldDataService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const field = (id: number, table_id: number, over: Partial<WarehouseField> = {}) =>
    ({
      id,
      table_id,
      name: `f${id}`,
      base_type: 'type/Integer',
      semantic_type: null,
      fk_target_field_id: null,
      visibility_type: 'normal',
      active: true,
      ...over,
    }) as WarehouseField;
  // Orders (table 1): 10 the key, 11 an FK to people.id (20); people (table 2): 20 id, 21 name; 30 in table 3 of database 2.
  const fields = new Map<number, WarehouseField>(
    [
      field(10, 1),
      field(11, 1, { semantic_type: 'type/FK', fk_target_field_id: 20 }),
      field(12, 1, { visibility_type: 'sensitive' }),
      field(20, 2),
      field(21, 2, { base_type: 'type/Text' }),
      field(30, 3),
    ].map((f) => [f.id, f]),
  );

  function setup(rows: unknown[][] = [['1', 'Ann']], restrictedTables: number[] = []) {
    const access = {
      field: jest.fn(async (_c: AuthUser, id: number) => ({
        field: fields.get(id)!,
        table: { id: fields.get(id)!.table_id, name: `t${fields.get(id)!.table_id}` },
        db: { id: 1, engine: 'postgres' },
      })),
    };
    const repo = {
      findField: jest.fn(async (id: number) => fields.get(id) ?? null),
      findTable: jest.fn(async (id: number) => ({ id, db_id: id === 3 ? 2 : 1 })),
    };
    const driver = { engine: 'postgres', query: jest.fn().mockResolvedValue({ rows }) };
    const bus = new EventBus();
    const lookups = new PolicyLookups(bus);
    const runner = jest.fn(async (..._args: unknown[]) => [[1, 'Ann', 'extra']]);
    bus.answer(LookupRowsQuery, (q) => runner(q.caller, q.query, q.maxRows));
    const service = new FieldDataService(
      access as unknown as MetadataAccess,
      repo as unknown as FieldsRepository,
      { driverFor: () => driver } as unknown as WarehouseConnections,
      lookups,
      { restrictor: () => async (_db: number, table: number) => restrictedTables.includes(table) } as unknown as RowSecurityService,
    );
    return { service, driver, runner };
  }

  it("searches and remaps a restricted table's values through the engine (the caller's policies), never the warehouse", async () => {
    const m = setup([], [2]);
    await expect(m.service.search(user, 11, 21, 'an', 5)).resolves.toEqual([[1, 'Ann']]);
    expect(m.runner).toHaveBeenLastCalledWith(
      user,
      expect.objectContaining({
        database: 1,
        query: expect.objectContaining({
          'source-table': 2,
          breakout: [
            ['field', 20, null],
            ['field', 21, null],
          ],
          filter: ['starts-with', ['concat', ['field', 21, null]], 'an', { 'case-sensitive': false }],
          limit: 5,
        }),
      }),
      5,
    );
    await expect(m.service.remapping(user, 11, 21, '1')).resolves.toEqual([1, 'Ann']);
    expect(m.runner).toHaveBeenLastCalledWith(
      user,
      expect.objectContaining({ query: expect.objectContaining({ filter: ['=', ['field', 20, null], 1] }) }),
      1,
    );
    expect(m.driver.query).not.toHaveBeenCalled();
  });

  it('searches a field of the same table, or of the table its foreign key points to, read-only and capped', async () => {
    const m = setup();
    await expect(m.service.search(user, 20, 21, 'an', 5000)).resolves.toEqual([['1', 'Ann']]);
    expect(m.driver.query).toHaveBeenLastCalledWith(
      expect.any(String),
      ['an%'],
      expect.objectContaining({ readOnly: true, maxRows: SEARCH_MAX }),
    );
    await m.service.search(user, 11, 21, 'an');
    expect(m.driver.query).toHaveBeenCalledTimes(2);
    const e = await m.service.search(user, 10, 21, 'an').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe(
      'The second field must belong to the same table as the first, or to the table its foreign key points to.',
    );
  });

  it("remaps a key to the row's value, and answers the value alone when it cannot be a key or no row has it", async () => {
    const m = setup();
    await expect(m.service.remapping(user, 11, 21, '1')).resolves.toEqual(['1', 'Ann']);
    expect(m.driver.query.mock.calls[0][1]).toEqual([1]);
    await expect(m.service.remapping(user, 11, 21, 'abc')).resolves.toEqual(['abc']);
    expect(m.driver.query).toHaveBeenCalledTimes(1);
    await expect(setup([]).service.remapping(user, 11, 21, '2')).resolves.toEqual(['2']);
  });

  it('keeps sensitive fields to admins, and counts a summary from the warehouse', async () => {
    await expect(setup().service.summary(user, 12)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setup([[42n, null]]).service.summary(user, 10)).resolves.toEqual([
      ['count', 42],
      ['distincts', null],
    ]);
  });
});
