/** What the load suite's workloads share: requests over an agent of their own, the server's metrics, a free port. */
import * as http from 'node:http';
import * as net from 'node:net';

export interface Answer {
  /** 0: the connection failed (refused, reset) before an answer. */
  status: number;
  ms: number;
  body: string;
}

/** One request over `through` (a client's own keep-alive connections); never rejects: a failed connection is status 0. */
export function send(
  through: http.Agent,
  url: string,
  method: string,
  route: string,
  opts: { session?: string; body?: unknown } = {},
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const started = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((resolve) => {
    const req = http.request(
      url + route,
      {
        method,
        agent: through,
        headers: {
          'Content-Type': 'application/json',
          ...(payload ? { 'Content-Length': Buffer.byteLength(payload) } : {}),
          ...(opts.session ? { 'X-Metabase-Session': opts.session } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: ms(), body: Buffer.concat(chunks).toString() }));
        res.on('error', (e) => resolve({ status: 0, ms: ms(), body: String(e) }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, ms: ms(), body: String(e) }));
    req.end(payload);
  });
}

/** A query answer that is a success: 202 with `status: completed` (a failed query is a 202 too). */
export function completed(a: Answer): boolean {
  return (a.status === 202 || a.status === 200) && a.body.includes('"status":"completed"');
}

/** A port nothing listens on now (for METRICS_PORT: the server's log names its API URL first, so it is chosen here). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The value of one series of the server's Prometheus metrics (0 when absent). */
export async function metric(metricsUrl: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([\w:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (m && m[1] === name && want.every((w) => m[2].split(',').includes(w))) return Number(m[3]);
  }
  return 0;
}

/** Warehouse runs on database `db` (each takes one query slot: identical queries sharing a run count once), and shared answers. */
export async function runCounts(metricsUrl: string, db: number): Promise<{ runs: number; shared: number }> {
  const pool = `db-${db}`;
  return {
    runs: await metric(metricsUrl, 'analytics_query_queue_wait_seconds_count', { pool, outcome: 'ran' }),
    shared: await metric(metricsUrl, 'analytics_query_shared_total', { pool }),
  };
}
