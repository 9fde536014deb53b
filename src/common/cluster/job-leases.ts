import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../database/app-sql';
import { newInstanceId } from './cluster-events';

/**
 * Leases in the app DB for jobs that must run on one instance at a time (`job_lease`: one row per job name,
 * its holder and when the lease runs out, epoch ms). A claim succeeds when nobody holds the job, the holder's
 * lease has run out (its instance died or hung: it is taken over), or this instance holds it already. Clocks of
 * the instances are assumed to agree within a small fraction of the lease's length.
 */
@Injectable()
export class JobLeases {
  private readonly sql: AppSql;

  constructor(
    db: DataSource,
    /** Who claims; one per process by default, a test may play two instances in one process. */
    readonly holder: string = newInstanceId(),
  ) {
    this.sql = new AppSql(db);
  }

  /** Takes the lease on `name` for `ttlMs`; true when this holder has it now. */
  async claim(name: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const changed = await this.sql.execute(
      `INSERT INTO job_lease (name, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE job_lease.expires_at <= $4 OR job_lease.holder = $2`,
      [name, this.holder, now + ttlMs, now],
    );
    return changed === 1;
  }

  /** Extends a lease this holder still has; false when it was lost (taken over after running out). */
  async renew(name: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const changed = await this.sql.execute(`UPDATE job_lease SET expires_at = $1 WHERE name = $2 AND holder = $3`, [
      now + ttlMs,
      name,
      this.holder,
    ]);
    return changed === 1;
  }

  /** Gives the lease up, so that another instance may claim it at once. */
  async release(name: string): Promise<void> {
    await this.sql.execute(`DELETE FROM job_lease WHERE name = $1 AND holder = $2`, [name, this.holder]);
  }

  /**
   * Runs `job` at most once per `everyMs` across all instances: the lease is claimed for the whole period and
   * kept after the run, so another instance's claim fails until it runs out. When the holder dies, the job runs
   * again on whichever instance asks first after that. Answers whether this call ran it.
   */
  async runOncePer(name: string, everyMs: number, job: () => Promise<unknown>): Promise<boolean> {
    if (!(await this.claim(name, everyMs))) return false;
    await job();
    return true;
  }
}
