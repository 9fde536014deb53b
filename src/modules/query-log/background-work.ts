/**
 * Work that runs after the answer is on its way (log writes, pruning): started on the next turn of the event
 * loop, failures handed to `onError` (never thrown), and awaitable as a whole so a shutting-down app (or a
 * test) can wait for what is still in flight.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly onError: (what: string, e: unknown) => void) {}

  start(what: string, work: () => Promise<unknown>): void {
    const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (e: unknown) => this.onError(what, e),
      )
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves once everything started so far (and whatever that started) has finished. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
