import { DataSource } from 'typeorm';
import { JobLeases } from './job-leases';

describe('JobLeases', () => {
  let db: DataSource;
  let a: JobLeases;
  let b: JobLeases;

  beforeEach(async () => {
    db = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await db.query(
      'CREATE TABLE job_lease (name varchar(128) PRIMARY KEY NOT NULL, holder varchar(128) NOT NULL, expires_at bigint NOT NULL)',
    );
    a = new JobLeases(db, 'instance-a');
    b = new JobLeases(db, 'instance-b');
  });

  afterEach(() => db.destroy());

  it('lets one holder at a time claim a job, and the holder claim it again', async () => {
    expect(await a.claim('prune', 1_000, 0)).toBe(true);
    expect(await b.claim('prune', 1_000, 10)).toBe(false);
    expect(await a.claim('prune', 1_000, 20)).toBe(true);
    expect(await b.claim('other', 1_000, 20)).toBe(true);
  });

  it('hands an expired lease over to another holder, after which the old one cannot renew it', async () => {
    await a.claim('prune', 1_000, 0);
    expect(await b.claim('prune', 1_000, 999)).toBe(false);
    expect(await b.claim('prune', 1_000, 1_000)).toBe(true);
    expect(await a.renew('prune', 1_000, 1_001)).toBe(false);
    expect(await b.renew('prune', 1_000, 1_001)).toBe(true);
    expect(await a.claim('prune', 1_000, 1_999)).toBe(false);
  });

  it('frees a released lease at once, and only its holder can release it', async () => {
    await a.claim('prune', 60_000, 0);
    await b.release('prune');
    expect(await b.claim('prune', 60_000, 1)).toBe(false);
    await a.release('prune');
    expect(await b.claim('prune', 60_000, 2)).toBe(true);
  });

  it('runs a periodic job once per period across holders', async () => {
    let runs = 0;
    const job = async () => runs++;
    expect(await a.runOncePer('prune', 60_000, job)).toBe(true);
    expect(await b.runOncePer('prune', 60_000, job)).toBe(false);
    expect(await a.runOncePer('prune', 60_000, job)).toBe(true); // its own lease: the caller limits how often it asks
    expect(runs).toBe(2);
  });
});
