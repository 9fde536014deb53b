import { Client } from 'pg';
import { AppLogger } from '../logging/app-logger';
import { ClusterEvent, decodeEvent, encodeEvent } from './cluster-event';
import { ClusterEvents } from './cluster-events';

/** The one channel every instance on an app DB listens on (NOTIFY is scoped to the database). */
export const CLUSTER_CHANNEL = 'analytics_cluster';
const MAX_BACKOFF_MS = 10_000;
/** A dead peer without a FIN (a cut network) is noticed by this heartbeat, not by TCP for minutes. */
const HEARTBEAT_MS = 15_000;

export interface PgBusOptions {
  url: string;
  logger: AppLogger;
  /** Sends one NOTIFY through the app DB's pool (which reconnects on its own), as bound parameters. */
  notify: (channel: string, payload: string) => Promise<unknown>;
  channel?: string;
}

/**
 * The bus on the Postgres app DB: one dedicated connection LISTENs; publishing is `SELECT pg_notify($1, $2)`
 * through the pool, after the publisher's commit. Events raised in the same tick are sent once (a sync writing a
 * thousand fields sends one `metadata`). When the listening connection is lost, `live` turns false (caches poll
 * again), it reconnects with backoff and subscribes again, and then raises `all` once: whatever was sent
 * meanwhile was missed.
 */
export class PgClusterEvents extends ClusterEvents {
  private client: Client | null = null;
  private connected = false;
  private closing = false;
  private failures = 0;
  private everConnected = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private pending = new Set<string>();
  private flushing: Promise<void> | null = null;
  private readonly channel: string;

  constructor(private readonly opts: PgBusOptions) {
    super();
    this.channel = opts.channel ?? CLUSTER_CHANNEL;
  }

  override get live(): boolean {
    return this.connected;
  }

  override get distributed(): boolean {
    return true;
  }

  /** Connects once; a failure leaves the bus retrying in the background (polling covers the meantime). */
  async start(): Promise<void> {
    await this.connect();
  }

  protected override send(event: ClusterEvent): Promise<void> {
    this.pending.add(encodeEvent(event, this.instanceId));
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    return this.flushing;
  }

  private async flush(): Promise<void> {
    const payloads = [...this.pending];
    this.pending.clear();
    this.flushing = null;
    for (const payload of payloads) {
      try {
        await this.opts.notify(this.channel, payload);
      } catch (e) {
        this.opts.logger.warning('Cluster events: sending a notification failed; other instances see the change when they poll', {
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }

  private async connect(): Promise<void> {
    if (this.closing) return;
    const client = new Client({
      connectionString: this.opts.url,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      application_name: 'analytics-server-events',
    });
    this.client = client;
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client));
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel) return;
      const decoded = decodeEvent(msg.payload);
      if (decoded && decoded.from !== this.instanceId) this.deliver(decoded.event, 'remote');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
    } catch (e) {
      this.lost(client, e);
      return;
    }
    if (this.client !== client) return;
    const reconnected = this.everConnected;
    this.connected = true;
    this.everConnected = true;
    this.failures = 0;
    this.heartbeat = setInterval(() => void client.query('SELECT 1').catch((e: unknown) => this.lost(client, e)), HEARTBEAT_MS).unref();
    if (reconnected) {
      this.opts.logger.info('Cluster events: listening again; dropping every cached entry once');
      this.deliver({ topic: 'all' }, 'remote');
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    this.connected = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.closing) return;
    const delay = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.failures++);
    this.opts.logger.warning('Cluster events: lost the listening connection; polling until it is back', {
      retry_in_ms: delay,
      ...(error ? { error: error instanceof Error ? error.message : String(error) } : {}),
    });
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  override async close(): Promise<void> {
    this.closing = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.flushing;
    const client = this.client;
    this.client = null;
    this.connected = false;
    if (client) await client.end().catch(() => undefined);
  }
}
