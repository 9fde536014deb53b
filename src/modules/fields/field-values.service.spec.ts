import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError } from '../../common/errors/api-errors';
import type { WarehouseField } from '../../schema/field.entity';
import type { SyncService } from '../sync';
import { RowSecurityService } from '../row-security';
import { EventBus } from '../../common/events/event-bus';
import { LookupRowsQuery, PolicyLookups } from './policy-lookups';
import { FieldValuesService, NOT_REMAPPABLE, PARTIAL_REMAPPING } from './field-values.service';
import type { FieldsRepository } from './fields.repository';
import type { MetadataAccess } from './metadata-access.service';

/** FieldValuesService: when a field has a value list, scanning it on first use, and remapping its values. */
describe('FieldValuesService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const field = (over: Partial<WarehouseField> = {}) =>
    ({
      id: 5,
      base_type: 'type/Text',
      semantic_type: null,
      has_field_values: 'list',
      visibility_type: 'normal',
      ...over,
    }) as WarehouseField;

  function setup(f: WarehouseField, stored: unknown[] = [], restricted = false) {
    const lists = [...stored];
    const db = { id: 1 };
    const repo = { values: jest.fn(async () => lists.slice(0, 1)), saveValues: jest.fn().mockResolvedValue(undefined) };
    const sync = {
      refreshValues: jest.fn(
        async () => void lists.push({ field_id: 5, values: ['a', 'b'], human_readable_values: null, has_more_values: false }),
      ),
      discardValues: jest.fn(),
    };
    const bus = new EventBus();
    const lookups = new PolicyLookups(bus);
    const runner = jest.fn(async (..._args: unknown[]) => [['b'], ['c']]);
    bus.answer(LookupRowsQuery, (q) => runner(q.caller, q.query, q.maxRows));
    const service = new FieldValuesService(
      { field: jest.fn().mockResolvedValue({ field: f, db }) } as unknown as MetadataAccess,
      repo as unknown as FieldsRepository,
      sync as unknown as SyncService,
      lookups,
      { restricts: jest.fn().mockResolvedValue(restricted) } as unknown as RowSecurityService,
    );
    return { service, repo, sync, db, runner };
  }

  it("lists a restricted caller's values by a query through the engine, with the stored names of those values", async () => {
    const stored = [{ field_id: 5, values: ['a', 'b'], human_readable_values: ['A', 'B'], has_more_values: false }];
    const m = setup(field(), stored, true);
    await expect(m.service.values(user, 5)).resolves.toEqual({ field_id: 5, values: [['b', 'B'], ['c']], has_more_values: false });
    expect(m.runner).toHaveBeenCalledWith(user, expect.objectContaining({ database: 1, type: 'query' }), 1001);
    expect(m.sync.refreshValues).not.toHaveBeenCalled();
  });

  it('scans a list field on first use and answers the stored list after', async () => {
    const m = setup(field());
    await expect(m.service.values(user, 5)).resolves.toEqual({ field_id: 5, values: [['a'], ['b']], has_more_values: false });
    expect(m.sync.refreshValues).toHaveBeenCalledWith(m.db, [5]);
    await m.service.values(user, 5);
    expect(m.sync.refreshValues).toHaveBeenCalledTimes(1);
  });

  it('answers no values for fields without a list (temporal, hidden, search) and refuses sensitive ones to non-admins', async () => {
    for (const f of [
      field({ base_type: 'type/DateTime' }),
      field({ visibility_type: 'details-only' }),
      field({ has_field_values: 'search' }),
    ]) {
      const m = setup(f);
      await expect(m.service.values(user, 5)).resolves.toEqual({ field_id: 5, values: [], has_more_values: false });
      expect(m.sync.refreshValues).not.toHaveBeenCalled();
    }
    await expect(setup(field({ visibility_type: 'sensitive' })).service.values(user, 5)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('remaps values of list, category-like and boolean fields only, with a name for every value or for none', async () => {
    const message = async (p: Promise<unknown>) => ((await p.catch((x: unknown) => x)) as MessageError).message;
    expect(await message(setup(field({ has_field_values: 'none' })).service.setValues(user, 5, { values: [['a', 'A']] } as never))).toBe(
      NOT_REMAPPABLE,
    );
    expect(await message(setup(field()).service.setValues(user, 5, { values: [['a', 'A'], ['b']] } as never))).toBe(PARTIAL_REMAPPING);

    const named = setup(field({ has_field_values: 'none', semantic_type: 'type/State' }));
    await named.service.setValues(user, 5, {
      values: [
        ['CA', 'California'],
        ['NY', 'New York'],
      ],
    } as never);
    expect(named.repo.saveValues).toHaveBeenCalledWith(5, ['CA', 'NY'], ['California', 'New York']);

    const plain = setup(field({ base_type: 'type/Boolean', has_field_values: 'none' }));
    await plain.service.setValues(user, 5, { values: [[true], [false]] } as never);
    expect(plain.repo.saveValues).toHaveBeenCalledWith(5, [true, false], null);
  });
});
