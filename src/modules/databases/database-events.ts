/**
 * A database is about to be deleted from the app DB, while its rows still say what depends on it in the warehouse
 * (persisted models' tables); emitted outside any transaction. The user asked for it to go: a listener logs its own
 * failures (an unreachable warehouse) instead of stopping the deletion.
 */
export class DatabaseDeleting {
  constructor(readonly databaseId: number) {}
}
