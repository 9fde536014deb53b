import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ClusterEvent, ClusterHandler, ClusterOrigin } from './cluster-event';

/**
 * One app instance among those on an app DB: in lease holders and to skip its own notifications. Per app, not
 * per process: a test may run two apps in one process.
 */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * The bus by which instances sharing an app DB tell each other what changed, so that each drops what it cached
 * at once instead of after its polling interval. Publishers call `publish()` after their write has committed;
 * caches `subscribe()`. Handlers run for events raised here too (origin `local`), so that one code path serves
 * both; a handler whose own write already updated it ignores those.
 *
 * This base class is the in-process bus used on SQLite (one instance: nothing to tell anybody); on Postgres the
 * subclass adds LISTEN/NOTIFY. `live` says whether remote events arrive right now: while false, caches keep
 * polling at SETTINGS_REFRESH_SECONDS.
 */
export class ClusterEvents {
  private readonly handlers = new Set<ClusterHandler>();
  readonly instanceId = newInstanceId();

  get live(): boolean {
    return false;
  }

  /** Whether other instances may share the app DB: their writes reach this one only through the bus. */
  get distributed(): boolean {
    return false;
  }

  subscribe(handler: ClusterHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Tells every instance (this one first, synchronously). Never throws: a lost event is covered by polling. */
  async publish(event: ClusterEvent): Promise<void> {
    this.deliver(event, 'local');
    await this.send(event);
  }

  /** Sends to the other instances; nothing to do in-process. */
  protected async send(_event: ClusterEvent): Promise<void> {}

  protected deliver(event: ClusterEvent, origin: ClusterOrigin): void {
    for (const handler of this.handlers) {
      try {
        handler(event, origin);
      } catch {
        // A failing handler must not keep the others from dropping their entries.
      }
    }
  }

  async close(): Promise<void> {}
}
