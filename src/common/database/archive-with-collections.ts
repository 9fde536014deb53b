import type { EntityManager } from 'typeorm';

/** Collection ids per bulk update. */
const IDS_PER_STATEMENT = 500;

/**
 * Archiving collections archives the items of `table` in them that are not archived yet (and unpins them);
 * unarchiving restores those, leaving the items archived on their own before (`archived_directly`).
 */
export async function archiveWithCollections(
  tx: EntityManager,
  table: 'report_card' | 'report_dashboard',
  collectionIds: number[],
  archived: boolean,
): Promise<void> {
  for (let i = 0; i < collectionIds.length; i += IDS_PER_STATEMENT) {
    const ids = collectionIds.slice(i, i + IDS_PER_STATEMENT);
    const qb = tx.createQueryBuilder().update(table).where('collection_id IN (:...ids)', { ids });
    if (archived) await qb.set({ archived: true, collection_position: null }).andWhere('archived = :no', { no: false }).execute();
    else await qb.set({ archived: false }).andWhere('archived_directly = :no', { no: false }).execute();
  }
}
