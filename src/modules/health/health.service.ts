import { Injectable } from '@nestjs/common';
import { HealthRepository } from './health.repository';

/** Longer than a healthy round trip under load, shorter than a load balancer's usual check timeout. */
export const HEALTH_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(private readonly repo: HealthRepository) {}

  /** True when the app DB answers `SELECT 1` in time. A hung pool counts as down, not as a hung check. */
  async appDbReachable(timeoutMs = HEALTH_TIMEOUT_MS): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([this.repo.ping().then(() => true as const), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
