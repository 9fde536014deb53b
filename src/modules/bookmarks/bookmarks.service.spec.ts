import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { CollectionAccessService } from '../collections';
import { BookmarksRepository, type BookmarkListRow } from './bookmarks.repository';
import { BookmarksService } from './bookmarks.service';

/** BookmarksService: what may be bookmarked and the order of the list; the repository and access mocked. */
describe('BookmarksService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;

  function setup(found: { exists: boolean; readable: boolean } = { exists: true, readable: true }, existing: unknown = null) {
    const repo = {
      object: jest.fn().mockResolvedValue(found),
      find: jest.fn().mockResolvedValue(existing),
      insert: jest.fn(async (userId: number, model: string, id: number) => ({
        id: 1,
        user_id: userId,
        model,
        model_id: id,
        created_at: '2024-01-01 00:00:00',
      })),
      listOf: jest.fn(),
    };
    const access = { readableWhere: jest.fn().mockResolvedValue(TRUE) };
    return { service: new BookmarksService(repo as unknown as BookmarksRepository, access as unknown as CollectionAccessService), repo };
  }

  it('bookmarks only what exists (404) and the caller may read (403), once (400)', async () => {
    await expect(setup({ exists: false, readable: false }).service.create(user, 'card', 5)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup({ exists: true, readable: false }).service.create(user, 'card', 5)).rejects.toBeInstanceOf(ForbiddenError);
    const twice = await setup(undefined, { id: 1 })
      .service.create(user, 'card', 5)
      .catch((x: unknown) => x);
    expect((twice as MessageError).message).toBe('Bookmark already exists');
    await expect(setup().service.create(user, 'dashboard', 5)).resolves.toMatchObject({ user_id: 7, dashboard_id: 5 });
    await expect(setup().service.create(user, 'pulse' as never, 5)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lists the caller's ordering first, then the newest", async () => {
    const m = setup();
    const row = (id: number, bookmark_id: number, ordering: number | null, created_at: string) =>
      ({ id, bookmark_id, ordering, created_at, name: `n${id}`, description: null }) as unknown as BookmarkListRow;
    m.repo.listOf.mockImplementation(async (_u: number, model: string) =>
      model === 'card'
        ? [row(1, 10, null, '2024-01-01 00:00:00'), row(2, 11, 2, '2024-01-01 00:00:00')]
        : model === 'dashboard'
          ? [row(3, 12, null, '2024-03-01 00:00:00'), row(4, 13, 1, '2023-01-01 00:00:00')]
          : [],
    );
    const ids = (await m.service.list(user)).map((b) => b.id);
    expect(ids).toEqual(['dashboard-4', 'card-2', 'dashboard-3', 'card-1']);
    expect(m.repo.listOf).toHaveBeenCalledTimes(BookmarksRepository.models().length);
  });
});
