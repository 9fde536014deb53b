import { Injectable } from '@nestjs/common';
import { QueryLogService, rawQueryHash } from '../query-log';
import { SettingsService } from '../settings';

/** The stored `cache_ttl` values that may apply to a run, most specific first. They are in hours, as in Metabase. */
export interface CacheTtlSources {
  /** The dataset query (as sent or normalized), for the average running time behind the "magic" TTL. */
  query: unknown;
  card?: number | null;
  dashboard?: number | null;
  database?: number | null;
}

/** What to pass to DatasetService.run as `cacheTtlSeconds` and `cacheMinDurationMs`. */
export interface CachePlan {
  cacheTtlSeconds: number | null;
  cacheMinDurationMs: number;
}

/** Metabase's TTL chain, as a pure function: no caching unless enabled; card, dashboard, database TTL (hours); else average x ratio. */
export function cacheTtlSeconds(
  enabled: boolean,
  sources: Omit<CacheTtlSources, 'query'>,
  averageMs: number | null,
  ratio: number,
): number | null {
  if (!enabled) return null;
  const stored = [sources.card, sources.dashboard, sources.database].find((v) => typeof v === 'number' && v > 0);
  if (stored !== undefined) return stored! * 3600;
  if (averageMs === null || !(ratio > 0)) return null;
  const magic = Math.round((averageMs * ratio) / 1000);
  return magic > 0 ? magic : null;
}

/**
 * Decides how long a saved question's result may be reused (for the cards and dashboards endpoints):
 * `enable-query-caching` must be on; then the card's, dashboard's or database's `cache_ttl` (hours), else the
 * "magic" TTL of `query-caching-ttl-ratio` times the query's average running time. Only runs longer than
 * `query-caching-min-ttl` seconds are stored.
 */
@Injectable()
export class QueryCachePolicy {
  constructor(
    private readonly settings: SettingsService,
    private readonly queryLog: QueryLogService,
  ) {}

  async plan(sources: CacheTtlSources): Promise<CachePlan> {
    const enabled = Boolean(await this.settings.get<boolean>('enable-query-caching'));
    if (!enabled) return { cacheTtlSeconds: null, cacheMinDurationMs: 0 };
    const ratio = Number(await this.settings.get<number>('query-caching-ttl-ratio'));
    const minTtl = Number(await this.settings.get<number>('query-caching-min-ttl'));
    const hasStored = [sources.card, sources.dashboard, sources.database].some((v) => typeof v === 'number' && v > 0);
    const average = hasStored ? null : await this.queryLog.averageExecutionTime(rawQueryHash(sources.query));
    return { cacheTtlSeconds: cacheTtlSeconds(true, sources, average, ratio), cacheMinDurationMs: Math.max(0, minTtl) * 1000 };
  }
}
