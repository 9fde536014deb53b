/** A card's `dataset_query` changed; emitted after its transaction committed (a persisted model's table is stale). */
export class CardQueryChanged {
  constructor(readonly cardId: number) {}
}

/**
 * A card is about to be deleted for good, while its rows still say what depends on it outside the app database (a
 * persisted model's table); emitted outside any transaction. The user asked for the card to go: a listener logs its
 * own failures (an unreachable warehouse) instead of stopping the deletion.
 */
export class CardDeleting {
  constructor(readonly cardId: number) {}
}
