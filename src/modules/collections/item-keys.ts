import type { CollectionItem } from './collection-item-source';

/** What every item of one listing shares: the caller's rights on the collection listed, and whether it is trashed. */
export interface ItemContext {
  /** Write access to the collection listed (its items' access follows it). */
  canWrite: boolean;
  /** The collection listed is itself in the trash: nothing in it can be restored on its own. */
  parentArchived: boolean;
  isSuperuser: boolean;
}

const CARD_MODELS = new Set(['card', 'dataset', 'metric']);

/**
 * Fills in the keys Metabase's GET /api/collection/:id/items sends for each model that the sources leave out, with
 * its defaults (null where it sends null; it unions every model's columns). `archived_directly`, which sources pass
 * for `can_restore`, is not sent (Metabase drops it too). Mutates and answers the item.
 */
export function withItemKeys(item: CollectionItem, ctx: ItemContext): CollectionItem {
  const archived = item.archived === true;
  const directly = item.archived_directly === true;
  delete item.archived_directly;
  const restorable = (canWrite: boolean) => archived && directly && canWrite && !ctx.parentArchived;
  if (CARD_MODELS.has(item.model) || item.model === 'dashboard') {
    item.location ??= null;
    item.last_used_at ??= null;
    item.can_write = ctx.canWrite;
    item.can_restore = restorable(ctx.canWrite);
    item.can_delete = archived && ctx.canWrite;
    if (item.model === 'dashboard') item.database_id ??= null;
    if (item.model === 'dataset') item.based_on_upload ??= null;
  } else if (item.model === 'collection') {
    const canWrite = item.can_write === true;
    item.can_restore = restorable(canWrite);
    // Only admins delete collections, and never personal ones.
    item.can_delete = archived && ctx.isSuperuser && (item.personal_owner_id ?? null) === null;
    item.database_id ??= null;
    item.last_used_at ??= null;
  } else if (item.model === 'timeline') {
    item.location ??= null;
    item.personal_owner_id ??= null;
    item.database_id ??= null;
    item.last_used_at ??= null;
  }
  return item;
}
