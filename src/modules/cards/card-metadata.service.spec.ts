import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { DatasetMetadataService } from '../dataset';
import type { TableMetadataService } from '../tables';
import type { CardAccessService } from './card-access.service';
import { CardMetadataService } from './card-metadata.service';

/** CardMetadataService: a card's metadata with the virtual tables of the cards it is built on (and its own, for models). */
describe('CardMetadataService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const row = (type: string, source: unknown) => ({
    id: 9,
    type,
    dataset_query: JSON.stringify({ database: 1, type: 'query', query: { 'source-table': source } }),
  });

  function setup(card: ReturnType<typeof row>) {
    const datasetMetadata = { queryMetadata: jest.fn().mockResolvedValue({ databases: [{ id: 1 }], tables: [{ id: 10 }], fields: [] }) };
    const tableMetadata = { cardQueryMetadata: jest.fn(async (_c: AuthUser, id: number) => ({ id: `card__${id}` })) };
    const service = new CardMetadataService(
      { readable: jest.fn().mockResolvedValue({ row: card }) } as unknown as CardAccessService,
      datasetMetadata as unknown as DatasetMetadataService,
      tableMetadata as unknown as TableMetadataService,
    );
    return { service, datasetMetadata, tableMetadata };
  }

  it('adds the virtual tables of its source card, and its own when it is a model', async () => {
    const q = await setup(row('question', 'card__4')).service.queryMetadata(user, 9);
    expect(q.tables).toEqual([{ id: 10 }, { id: 'card__4' }]);
    const model = await setup(row('model', 10)).service.queryMetadata(user, 9);
    expect(model.tables).toEqual([{ id: 10 }, { id: 'card__9' }]);
  });

  it('leaves out what the caller may not see, and lets real failures through', async () => {
    const m = setup(row('model', 'card__4'));
    m.datasetMetadata.queryMetadata.mockRejectedValue(new ForbiddenError());
    m.tableMetadata.cardQueryMetadata.mockImplementation(async (_c, id) => {
      if (id === 4) throw new NotFoundError();
      return { id: `card__${id}` };
    });
    await expect(m.service.queryMetadata(user, 9)).resolves.toEqual({ databases: [], tables: [{ id: 'card__9' }], fields: [] });
    m.tableMetadata.cardQueryMetadata.mockRejectedValue(new TypeError('bug'));
    await expect(m.service.queryMetadata(user, 9)).rejects.toThrow(TypeError);
  });
});
