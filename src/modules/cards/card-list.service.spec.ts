import { raw, TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { BookmarksRepository } from '../bookmarks';
import type { CollectionAccessService } from '../collections';
import { CardListService } from './card-list.service';
import type { CardFilter } from './cards.dto';
import type { CardListFilter, CardsRepository } from './cards.repository';

/** CardListService: each `f` becomes one repository filter, model_id is checked first; collaborators mocked. */
describe('CardListService', () => {
  const WRITABLE = raw('writable');
  const batches = (async function* () {
    yield ['{"id":1}'];
  })();
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;

  function setup(opts: { exists?: boolean; bookmarked?: number[] } = {}) {
    const cards = {
      exists: jest.fn().mockResolvedValue(opts.exists ?? true),
      listJson: jest.fn().mockReturnValue(batches),
    };
    const access = { readableWhere: jest.fn().mockResolvedValue(TRUE), writableWhere: jest.fn().mockResolvedValue(WRITABLE) };
    const bookmarks = { bookmarkedIds: jest.fn().mockResolvedValue(new Set(opts.bookmarked ?? [])) };
    const service = new CardListService(
      cards as unknown as CardsRepository,
      access as unknown as CollectionAccessService,
      bookmarks as unknown as BookmarksRepository,
    );
    return { service, cards, access, bookmarks };
  }

  /** The filter the repository was asked for. */
  async function filterOf(f: CardFilter, modelId?: number): Promise<CardListFilter> {
    const m = setup({ bookmarked: [4, 9] });
    await m.service.list(user, f, modelId);
    expect(m.cards.listJson).toHaveBeenCalledTimes(1);
    return m.cards.listJson.mock.calls[0][0] as CardListFilter;
  }

  it('turns each filter mode into its repository condition, always behind the readable-collection condition', async () => {
    const base = { archived: false, readable: TRUE, writable: WRITABLE };
    await expect(filterOf('all')).resolves.toEqual(base);
    await expect(filterOf('archived')).resolves.toEqual({ ...base, archived: true });
    await expect(filterOf('mine')).resolves.toEqual({ ...base, creatorId: 7 });
    await expect(filterOf('bookmarked')).resolves.toEqual({ ...base, ids: [4, 9] });
    await expect(filterOf('database', 2)).resolves.toEqual({ ...base, databaseId: 2 });
    await expect(filterOf('table', 3)).resolves.toEqual({ ...base, tableId: 3 });
    await expect(filterOf('using_model', 4)).resolves.toEqual({ ...base, usingCard: 4 });
    await expect(filterOf('using_metric', 5)).resolves.toEqual({ ...base, usingMetric: 5 });
    await expect(filterOf('using_segment', 6)).resolves.toEqual({ ...base, usingSegment: 6 });
    await expect(filterOf('popular')).resolves.toEqual({ ...base, popular: true });
    await expect(filterOf('recent')).resolves.toEqual({ ...base, ranBy: 7 });
  });

  it('reads and write access on the card column and answers the repository batches as they are', async () => {
    const m = setup();
    await expect(m.service.list(user)).resolves.toBe(batches);
    expect(m.access.readableWhere).toHaveBeenCalledWith(user, 'c.collection_id');
    expect(m.access.writableWhere).toHaveBeenCalledWith(user, 'c.collection_id');
    expect(m.cards.listJson).toHaveBeenCalledWith(expect.objectContaining({ archived: false }), 1000);
  });

  it('answers no bookmarks with an empty list without querying the cards', async () => {
    const m = setup({ bookmarked: [] });
    const none = await m.service.list(user, 'bookmarked');
    const got: string[][] = [];
    for await (const b of none) got.push(b);
    expect(got).toEqual([]);
    expect(m.bookmarks.bookmarkedIds).toHaveBeenCalledWith(7, 'card');
    expect(m.cards.listJson).not.toHaveBeenCalled();
  });

  it('requires model_id for the modes that name an object (400), and the object to exist (404)', async () => {
    for (const f of ['database', 'table', 'using_model', 'using_metric', 'using_segment'] as const) {
      const e = await setup()
        .service.list(user, f)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).errors).toEqual({ model_id: `model_id is a required parameter when filter mode is '${f}'` });
    }
    const missing = setup({ exists: false });
    await expect(missing.service.list(user, 'table', 3)).rejects.toBeInstanceOf(NotFoundError);
    expect(missing.cards.exists).toHaveBeenCalledWith('table', 3);
    expect(missing.cards.listJson).not.toHaveBeenCalled();
    await expect(setup({ exists: false }).service.list(user, 'database', 2)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup({ exists: false }).service.list(user, 'using_model', 4)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('looks up no metric or segment for their modes, only requires the id', async () => {
    const m = setup({ exists: false });
    await m.service.list(user, 'using_metric', 5);
    await m.service.list(user, 'using_segment', 6);
    expect(m.cards.exists).not.toHaveBeenCalled();
    expect(m.cards.listJson).toHaveBeenCalledTimes(2);
  });
});
