import type { DriverOptions } from './driver';
import type { PoolSettings } from './resource-pool';

export const DEFAULT_MAX_POOL_SIZE = 15;

/** Engines with a server-side statement timeout get this much longer before the client-side backstop fires. */
export const SERVER_TIMEOUT_GRACE_MS = 1000;

export function poolSettings(options: DriverOptions): PoolSettings {
  return {
    max: Math.max(1, options.maxPoolSize ?? DEFAULT_MAX_POOL_SIZE),
    acquireTimeoutMs: options.acquireTimeoutMs ?? 30_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
  };
}
