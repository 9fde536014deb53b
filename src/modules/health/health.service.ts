import { Injectable } from '@nestjs/common';
import { HealthRepository } from './health.repository';

/** Longer than a healthy round trip under load, shorter than a load balancer's usual check timeout. */
export const HEALTH_TIMEOUT_MS = 2000;
/**
 * How long a successful ping answers for. Balancers and orchestrators check every few seconds each; a burst of
 * checks (several balancers, a monitoring storm) should cost the app DB one round trip, not one apiece.
 */
export const HEALTHY_FOR_MS = 1000;

@Injectable()
export class HealthService {
  private healthyUntil = 0;
  private inFlight: Promise<boolean> | null = null;

  constructor(private readonly repo: HealthRepository) {}

  /**
   * True when the app DB answers `SELECT 1` in time. A hung pool counts as down, not as a hung check. Checks at the
   * same time share one ping; a success stands for HEALTHY_FOR_MS, a failure is checked again at the next call.
   */
  appDbReachable(timeoutMs = HEALTH_TIMEOUT_MS): Promise<boolean> {
    if (!this.repo.connected()) return Promise.resolve(false);
    if (Date.now() < this.healthyUntil) return Promise.resolve(true);
    this.inFlight ??= this.ping(timeoutMs).finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async ping(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      const up = await Promise.race([this.repo.ping().then(() => true as const), timeout]);
      if (up) this.healthyUntil = Date.now() + HEALTHY_FOR_MS;
      return up;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
