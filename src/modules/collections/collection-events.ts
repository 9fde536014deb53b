import type { EntityManager } from 'typeorm';

/** A collection was created, renamed or re-described, inside that transaction (the search index keeps its words). */
export class CollectionSaved {
  constructor(
    readonly tx: EntityManager,
    readonly collectionId: number,
    readonly name: string,
    readonly description: string | null,
  ) {}
}

/** Collections were archived or unarchived, inside that transaction: their items follow them (at most 5000 ids). */
export class CollectionsArchived {
  constructor(
    readonly tx: EntityManager,
    readonly collectionIds: number[],
    readonly archived: boolean,
  ) {}
}

/**
 * Collections are about to be deleted for good, before the transaction: what lives outside the app database (a
 * persisted model's table) goes first, since it cannot be rolled back.
 */
export class CollectionsDeleting {
  constructor(readonly collectionIds: number[]) {}
}

/**
 * Collections are being deleted for good, inside that transaction (at most 5000 ids): their items go with them, and
 * what hangs on the collections and items (revisions, bookmarks, search terms). A listener that fails rolls it all back.
 */
export class CollectionsDeleted {
  constructor(
    readonly tx: EntityManager,
    readonly collectionIds: number[],
  ) {}
}
