import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { DatasetMetadataService } from '../dataset';
import { encodeBase64Json } from './automagic-params';
import type { AutomagicRepository } from './automagic.repository';
import { AutomagicService } from './automagic.service';
import type { RelatedLinks } from './related-links';
import type { RootResolver } from './root-resolver';
import { findTemplate } from './templates';
import { ORDERS, ordersRoot, PEOPLE, PRODUCTS } from './xray-fixture';
import type { Resolved } from './xray.types';

/**
 * AutomagicService around the builders: which cells and templates an x-ray takes, and what a cell or a model index row
 * does to the root. The resolver, repository and related links are mocked; the builders are real (on the Orders fixture).
 */
describe('AutomagicService', () => {
  const caller = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const resolved = (mayQuery: (t: number) => boolean = () => true): Resolved => ({
    root: ordersRoot(),
    prefix: 'table',
    tables: new Map([ORDERS, PRODUCTS, PEOPLE].map((id) => [id, { id, entity_type: 'entity/TransactionTable' } as never])),
    mayQuery,
  });

  function setup(r: Resolved = resolved(), fields: Record<number, { table_id: number; visibility_type: string | null }> = {}) {
    const resolver = {
      resolve: jest.fn().mockResolvedValue(r),
      predicate: jest.fn(async () => () => false),
      table: jest.fn(),
      adhoc: jest.fn(),
    };
    const repo = {
      fieldsByIds: jest.fn(async (ids: number[]) => ids.filter((id) => fields[id]).map((id) => ({ id, ...fields[id] }))),
      tables: jest.fn(async (ids: number[]) => ids.map((id) => ({ id }))),
      modelIndex: jest.fn().mockResolvedValue(null),
      modelIndexValue: jest.fn().mockResolvedValue(null),
    };
    const related = { of: jest.fn().mockResolvedValue({}) };
    const metadata = { queryMetadata: jest.fn().mockResolvedValue({}) };
    const service = new AutomagicService(
      resolver as unknown as RootResolver,
      repo as unknown as AutomagicRepository,
      related as unknown as RelatedLinks,
      metadata as unknown as DatasetMetadataService,
    );
    return { service, resolver, repo, related, metadata };
  }
  const cell = (fieldId: number, value: unknown) => encodeBase64Json(['=', ['field', fieldId, null], value]);

  it('narrows the x-ray to a cell: the filter, the title and the URL say so, and related links get the cell', async () => {
    const m = setup(resolved(), { 20: { table_id: PRODUCTS, visibility_type: null } });
    const x = await m.service.xray(caller, { entity: 'table', idOrQuery: String(ORDERS), cell: cell(20, 'Widget'), show: 'all' });
    expect(x.name).toContain('Widget');
    const [r, , cellSent] = m.related.of.mock.calls[0];
    expect(cellSent).toEqual(['=', ['field', 20, null], 'Widget']);
    expect(r.root.filter).toEqual(['=', ['field', 20, null], 'Widget']);
    expect(r.root.url).toBe(`/auto/dashboard/table/${ORDERS}/cell/${cell(20, 'Widget')}`);
  });

  it('answers a cell on an unknown, sensitive or retired field as a 404, and on a table the caller may not query as a 403', async () => {
    const fields = { 13: { table_id: ORDERS, visibility_type: 'sensitive' }, 14: { table_id: ORDERS, visibility_type: null } };
    await expect(
      setup(resolved(), fields).service.xray(caller, { entity: 'table', idOrQuery: '2', cell: cell(99, 1), show: 'all' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      setup(resolved(), fields).service.xray(caller, { entity: 'table', idOrQuery: '2', cell: cell(13, 1), show: 'all' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const blocked = setup(
      resolved((t) => t !== ORDERS),
      fields,
    );
    await expect(blocked.service.xray(caller, { entity: 'table', idOrQuery: '2', cell: cell(14, 1), show: 'all' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    // A field of a table the x-ray did not load is checked against the caller's rights on it.
    const elsewhere = setup(resolved(), { 70: { table_id: 9, visibility_type: null } });
    await expect(
      elsewhere.service.xray(caller, { entity: 'table', idOrQuery: '2', cell: cell(70, 1), show: 'all' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(elsewhere.repo.tables).toHaveBeenCalledWith([9]);
    expect(elsewhere.related.of).not.toHaveBeenCalled();
  });

  it('takes a template only of the kind of the entity x-rayed', async () => {
    const m = setup();
    const fieldTemplate = { prefix: 'field', template: findTemplate('field', 'GenericField')! };
    const e = await m.service
      .xray(caller, { entity: 'table', idOrQuery: '2', template: fieldTemplate, show: 'all' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors).toEqual({ prefix: 'invalid value for prefix' });
  });

  it("narrows a model's x-ray to one row of its index, named by the row's value or by the model and key", async () => {
    const m = setup();
    await expect(m.service.modelIndexDetail(caller, 3, 42, 'all')).rejects.toBeInstanceOf(NotFoundError);

    m.repo.modelIndex.mockResolvedValue({ model_id: 8, pk_ref: JSON.stringify(['field', 10, null]) });
    const unnamed = await m.service.modelIndexDetail(caller, 3, 42, 'all');
    expect(m.resolver.resolve).toHaveBeenCalledWith(caller, 'model', '8');
    expect(unnamed.name).toBe('A look at Orders 42');
    const [r] = m.related.of.mock.calls[0];
    expect(r.root.filter).toEqual(['=', ['field', 10, null], 42]);
    expect(r.root.url).toBe('/auto/dashboard/model_index/3/primary_key/42');

    m.repo.modelIndexValue.mockResolvedValue('Order of Ann');
    expect((await m.service.modelIndexDetail(caller, 3, 42, 'all')).name).toBe('A look at Order of Ann');
  });

  it('asks for the metadata of the x-rayed table in its database', async () => {
    const m = setup();
    await m.service.queryMetadata(caller, 'table', '2');
    expect(m.metadata.queryMetadata).toHaveBeenCalledWith(caller, { database: 1, type: 'query', query: { 'source-table': ORDERS } });
  });
});
