import type { PoolInfo } from './driver';
import { ConnectionError, PoolTimeoutError, QueryCancelledError } from './errors';

export interface PoolFactory<T> {
  create(): Promise<T>;
  destroy(resource: T): Promise<void> | void;
  /** False for a connection the server dropped while it sat idle; it is destroyed instead of handed out. */
  isUsable?(resource: T): boolean;
}

export interface PoolSettings {
  max: number;
  acquireTimeoutMs: number;
  idleTimeoutMs: number;
}

interface Waiter<T> {
  /** False when the waiter already gave up (timeout, abort): the caller keeps the resource. */
  resolve(resource: T): boolean;
  reject(error: Error): void;
  /** The waiter got a slot and its connection is being opened: from here the connect timeout applies, not the wait. */
  stopWaitTimer(): void;
}

/**
 * One small pool for every engine (pg and mysql2 clients, DuckDB connections, SQLite executors), so that
 * queueing, the wait timeout, cancellation while waiting and the pool diagnostics behave the same everywhere.
 * Idle resources are reused last-in first-out, so the surplus ages out after idleTimeoutMs.
 */
export class ResourcePool<T> {
  private readonly idle: { resource: T; since: number }[] = [];
  private readonly busy = new Set<T>();
  private readonly waiters: Waiter<T>[] = [];
  private creating = 0;
  private closed = false;
  private readonly reaper: NodeJS.Timeout;

  constructor(
    private readonly factory: PoolFactory<T>,
    private readonly settings: PoolSettings,
  ) {
    this.reaper = setInterval(() => this.reapIdle(), Math.max(1000, settings.idleTimeoutMs / 2));
    this.reaper.unref();
  }

  async acquire(signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new ConnectionError('The connection pool is closed.');
    if (signal?.aborted) throw new QueryCancelledError();
    const ready = this.takeIdle();
    if (ready !== undefined) return ready;
    if (this.busy.size + this.creating < this.settings.max) return this.create();
    return this.wait(signal);
  }

  /** Gives a healthy resource back for reuse. */
  release(resource: T): void {
    if (!this.busy.delete(resource)) return;
    if (this.closed) {
      void this.destroyQuietly(resource);
      return;
    }
    this.idle.push({ resource, since: Date.now() });
    this.dispatch();
  }

  /** Gives back a resource that must not be reused (broken, or its query was killed). */
  discard(resource: T): void {
    if (!this.busy.delete(resource)) return;
    void this.destroyQuietly(resource);
    this.dispatch();
  }

  info(): PoolInfo {
    return {
      numConnections: this.idle.length + this.busy.size,
      numIdleConnections: this.idle.length,
      numBusyConnections: this.busy.size,
      numWaiting: this.waiters.length,
      maxPoolSize: this.settings.max,
    };
  }

  /** Fails the waiters, closes idle resources; busy ones are closed when they come back. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.reaper);
    for (const w of this.waiters.splice(0)) w.reject(new ConnectionError('The connection pool is closed.'));
    await Promise.all(this.idle.splice(0).map(({ resource }) => this.destroyQuietly(resource)));
  }

  private takeIdle(): T | undefined {
    while (this.idle.length) {
      const { resource } = this.idle.pop()!;
      if (this.factory.isUsable && !this.factory.isUsable(resource)) {
        void this.destroyQuietly(resource);
        continue;
      }
      this.busy.add(resource);
      return resource;
    }
    return undefined;
  }

  private async create(): Promise<T> {
    this.creating++;
    try {
      const resource = await this.factory.create();
      if (this.closed) {
        await this.destroyQuietly(resource);
        throw new ConnectionError('The connection pool is closed.');
      }
      this.busy.add(resource);
      return resource;
    } finally {
      this.creating--;
      // A failed creation frees a slot a waiter may now use.
      queueMicrotask(() => this.dispatch());
    }
  }

  private wait(signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new QueryCancelledError());
        return;
      }
      const started = Date.now();
      let settled = false;
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
      };
      const waiter: Waiter<T> = {
        resolve: (r) => {
          if (settled) return false;
          settle();
          resolve(r);
          return true;
        },
        reject: (e) => {
          if (settled) return;
          settle();
          reject(e);
        },
        stopWaitTimer: () => clearTimeout(timer),
      };
      const timer = setTimeout(() => waiter.reject(new PoolTimeoutError(Date.now() - started)), this.settings.acquireTimeoutMs);
      const onAbort = () => waiter.reject(new QueryCancelledError());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private dispatch(): void {
    while (this.waiters.length && !this.closed) {
      const ready = this.takeIdle();
      if (ready !== undefined) {
        this.waiters[0].resolve(ready);
        continue;
      }
      if (this.busy.size + this.creating >= this.settings.max) return;
      const waiter = this.waiters[0];
      // Take the waiter out of the queue while its resource is being created.
      this.waiters.shift();
      waiter.stopWaitTimer();
      this.create().then(
        (r) => {
          if (!waiter.resolve(r)) this.release(r);
        },
        (e: Error) => waiter.reject(e),
      );
    }
  }

  private reapIdle(): void {
    const cutoff = Date.now() - this.settings.idleTimeoutMs;
    for (let k = this.idle.length - 1; k >= 0; k--) {
      if (this.idle[k].since < cutoff) void this.destroyQuietly(this.idle.splice(k, 1)[0].resource);
    }
  }

  private async destroyQuietly(resource: T): Promise<void> {
    try {
      await this.factory.destroy(resource);
    } catch {
      // Closing a broken connection may fail too; there is nothing left to clean up.
    }
  }
}
