import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { CollectionAccessService, type CollectionPlace } from '../collections/collection-access.service';
import type { CollectionPerm } from '../collections/collection-permission.entity';
import { DashboardsRepository, type DashboardRow } from './dashboards.repository';

/** Where a dashboard lives, for the collection access check (null: the Root collection). */
export function dashboardPlace(row: Pick<DashboardRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>): CollectionPlace | null {
  if (row.collection_id === null || row.collection_id === undefined) return null;
  return { id: Number(row.collection_id), location: row.coll_location ?? '/', personal_owner_id: row.coll_personal_owner_id === null ? null : Number(row.coll_personal_owner_id) };
}

/** Loads a dashboard and checks what the caller may do with it: its collection decides (CollectionAccessService). */
@Injectable()
export class DashboardAccessService {
  constructor(
    private readonly dashboards: DashboardsRepository,
    private readonly collections: CollectionAccessService,
  ) {}

  /** The dashboard (404 when missing) with the caller's permission on it (403 when none). */
  async readable(caller: AuthUser, id: number): Promise<{ row: DashboardRow; perm: CollectionPerm }> {
    const row = await this.dashboards.row(id);
    if (!row) throw new NotFoundError();
    const perm = await this.collections.permission(caller, dashboardPlace(row));
    if (!perm) throw new ForbiddenError();
    return { row, perm };
  }

  async writable(caller: AuthUser, id: number): Promise<DashboardRow> {
    const { row, perm } = await this.readable(caller, id);
    if (perm !== 'write') throw new ForbiddenError();
    return row;
  }

  /** Write access to a collection (null: Root); 404 when it does not exist. */
  async assertWriteCollection(caller: AuthUser, collectionId: number | null): Promise<void> {
    if (collectionId === null) return this.collections.assertWrite(caller, null);
    const place = await this.dashboards.collectionPlace(collectionId);
    if (!place) throw new NotFoundError();
    await this.collections.assertWrite(caller, place);
  }
}
