import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { grantNames, isShared, type Reader } from '../../common/auth/shared-grant';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import { CollectionAccessService, type CollectionPlace } from '../collections';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { DashboardsRepository } from './dashboards.repository';
import { type DashboardRow } from '../../schema/dashboard.rows';

/** Where a dashboard lives, for the collection access check (null: the Root collection). */
export function dashboardPlace(
  row: Pick<DashboardRow, 'collection_id' | 'coll_location' | 'coll_personal_owner_id'>,
): CollectionPlace | null {
  if (row.collection_id === null || row.collection_id === undefined) return null;
  return {
    id: row.collection_id,
    location: row.coll_location ?? '/',
    personal_owner_id: row.coll_personal_owner_id,
  };
}

/**
 * Loads a dashboard and checks what the caller may do with it: for a user its collection decides
 * (CollectionAccessService); a shared object's grant reads the one dashboard it names.
 */
@Injectable()
export class DashboardAccessService {
  constructor(
    private readonly dashboards: DashboardsRepository,
    private readonly collections: CollectionAccessService,
  ) {}

  /** The dashboard (404 when missing) with the caller's permission on it (403 when none). */
  async readable(caller: Reader, id: number): Promise<{ row: DashboardRow; perm: CollectionPerm }> {
    const row = await this.dashboards.row(id);
    if (!row) throw new NotFoundError();
    if (isShared(caller)) {
      if (!grantNames(caller, 'dashboard', id)) throw new ForbiddenError();
      return { row, perm: 'read' };
    }
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
