import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, ValidationError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { WarehouseField } from '../../schema/field.entity';
import type { FieldHydrator } from './field-hydrator';
import type { FieldValuesService } from './field-values.service';
import type { FieldsRepository } from './fields.repository';
import { FieldsService } from './fields.service';
import type { MetadataAccess } from './metadata-access.service';

/** FieldsService's edits and what they keep consistent (FK, remapping, value lists), with the repository and access mocked. */
describe('FieldsService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const field = (over: Partial<WarehouseField> = {}) =>
    ({
      id: 5,
      table_id: 2,
      name: 'state',
      display_name: 'State',
      base_type: 'type/Text',
      semantic_type: 'type/Category',
      fk_target_field_id: null,
      visibility_type: 'normal',
      has_field_values: 'list',
      user_edited: ['description'],
      fingerprint: { global: { 'distinct-count': 12 } },
      active: true,
      ...over,
    }) as unknown as WarehouseField;

  function setup(current: WarehouseField = field(), others: WarehouseField[] = []) {
    let stored = current;
    const db = { id: 1, engine: 'postgres' };
    const access = { field: jest.fn(async () => ({ field: current, table: { id: 2, db_id: 1 }, db })), tableWithDb: jest.fn() };
    const byId = new Map(others.map((f) => [f.id, f]));
    const repo = {
      transaction: jest.fn(async (work: (tx: unknown) => unknown) => work('tx')),
      updateField: jest.fn(async (_id: number, changes: Partial<WarehouseField>) => void (stored = { ...stored, ...changes })),
      findField: jest.fn(async (id: number) => (id === current.id ? stored : (byId.get(id) ?? null))),
      findTable: jest.fn(async (id: number) => ({ id, db_id: id === 9 ? 2 : 1 })),
      fieldsByIds: jest.fn(async (ids: number[]) => ids.map((id) => byId.get(id)).filter(Boolean)),
      deleteDimension: jest.fn().mockResolvedValue(undefined),
      renameDimension: jest.fn().mockResolvedValue(undefined),
      saveDimension: jest.fn(async (_id: number, d: object) => ({ id: 1, field_id: 5, ...d })),
    };
    const hydrator = { detailed: jest.fn(async (fs: WarehouseField[]) => fs) };
    const values = { scan: jest.fn().mockResolvedValue(undefined), discardQuietly: jest.fn().mockResolvedValue(undefined) };
    const service = new FieldsService(
      access as unknown as MetadataAccess,
      repo as unknown as FieldsRepository,
      hydrator as unknown as FieldHydrator,
      values as unknown as FieldValuesService,
      new EventBus(),
    );
    return { service, repo, values, db, changes: () => repo.updateField.mock.calls[0][1] };
  }

  it('records edited keys; null clears texts but leaves the display name alone', async () => {
    const m = setup();
    await m.service.update(admin, 5, { display_name: null, description: null, caveats: 'careful' } as never);
    expect(m.changes()).toEqual({ description: null, caveats: 'careful', user_edited: ['description', 'caveats'] });
    expect(m.repo.renameDimension).not.toHaveBeenCalled();

    const renamed = setup();
    await renamed.service.update(admin, 5, { display_name: 'Region' } as never);
    expect(renamed.repo.renameDimension).toHaveBeenCalledWith(5, 'Region', 'tx');
  });

  it('drops a coercion that does not fit the base type, and sets the effective type from one that does', async () => {
    const m = setup(field({ base_type: 'type/Integer' }));
    await m.service.update(admin, 5, { coercion_strategy: 'Coercion/ISO8601->Date' } as never);
    expect(m.changes()).toMatchObject({ coercion_strategy: null, effective_type: 'type/Integer' });

    const ok = setup();
    await ok.service.update(admin, 5, { coercion_strategy: 'Coercion/ISO8601->Date' } as never);
    expect(ok.changes()).toMatchObject({ coercion_strategy: 'Coercion/ISO8601->Date', effective_type: 'type/Date' });
  });

  it('leaving type/FK drops the target and the FK remapping; a target must be a field of the same database', async () => {
    const m = setup(field({ semantic_type: 'type/FK', fk_target_field_id: 30 }));
    await m.service.update(admin, 5, { semantic_type: 'type/Category' } as never);
    expect(m.changes()).toMatchObject({ semantic_type: 'type/Category', fk_target_field_id: null });
    expect(m.repo.deleteDimension).toHaveBeenCalledWith(5, 'external', 'tx');

    const other = setup(field(), [field({ id: 40, table_id: 9 })]);
    const e = await other.service.update(admin, 5, { semantic_type: 'type/FK', fk_target_field_id: 40 } as never).catch((x: unknown) => x);
    expect((e as ValidationError).errors).toEqual({ fk_target_field_id: 'Invalid target field' });
    await expect(other.service.update(admin, 5, { fk_target_field_id: 2_147_483_648 } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(other.repo.updateField).not.toHaveBeenCalled();
  });

  it('scans or discards values when lists are switched or the field turns sensitive, and hands null back to sync', async () => {
    const on = setup(field({ has_field_values: 'none' }));
    await on.service.update(admin, 5, { has_field_values: 'list' } as never);
    expect(on.values.scan).toHaveBeenCalledWith(on.db, [5]);

    const off = setup();
    await off.service.update(admin, 5, { has_field_values: 'search' } as never);
    expect(off.values.discardQuietly).toHaveBeenCalledWith(5);
    expect(off.values.scan).not.toHaveBeenCalled();

    const hidden = setup();
    await hidden.service.update(admin, 5, { visibility_type: 'sensitive' } as never);
    expect(hidden.values.discardQuietly).toHaveBeenCalledWith(5);

    const auto = setup(field({ has_field_values: 'none', user_edited: ['has_field_values'] }));
    await auto.service.update(admin, 5, { has_field_values: null } as never);
    expect(auto.changes()).toMatchObject({ has_field_values: 'auto-list', user_edited: [] });
    expect(auto.values.scan).toHaveBeenCalled();
  });

  it('shows a sensitive field to admins only', async () => {
    const m = setup(field({ visibility_type: 'sensitive' }));
    await expect(m.service.get(user, 5, false)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('remaps a foreign key only to a live field of the table it points to', async () => {
    const message = async (p: Promise<unknown>) => ((await p.catch((x: unknown) => x)) as MessageError).message;
    const notFk = setup();
    expect(await message(notFk.service.setDimension(admin, 5, { type: 'external', name: 'x', human_readable_field_id: 31 } as never))).toBe(
      'Foreign key based remappings require the field to be a foreign key.',
    );
    expect(await message(notFk.service.setDimension(admin, 5, { type: 'external', name: 'x' } as never))).toBe(
      'Foreign key based remappings require a human readable field id',
    );

    const fk = field({ semantic_type: 'type/FK', fk_target_field_id: 30 });
    const targets = [
      field({ id: 30, table_id: 8 }),
      field({ id: 31, table_id: 8 }),
      field({ id: 32, table_id: 3 }),
      field({ id: 33, table_id: 8, active: false }),
    ];
    const m = setup(fk, targets);
    for (const wrong of [32, 33]) {
      expect(
        await message(m.service.setDimension(admin, 5, { type: 'external', name: 'x', human_readable_field_id: wrong } as never)),
      ).toBe('The human readable field must be a field of the table the foreign key points to.');
    }
    await m.service.setDimension(admin, 5, { type: 'external', name: ' Name ', human_readable_field_id: 31 } as never);
    expect(m.repo.saveDimension).toHaveBeenCalledWith(5, { type: 'external', name: 'Name', human_readable_field_id: 31 });
    await m.service.setDimension(admin, 5, { type: 'internal', name: 'Labels', human_readable_field_id: 31 } as never);
    expect(m.repo.saveDimension).toHaveBeenLastCalledWith(5, { type: 'internal', name: 'Labels', human_readable_field_id: null });
  });
});
