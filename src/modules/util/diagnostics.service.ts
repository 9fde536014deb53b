import * as os from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { appDbKind } from '../../common/database/data-source-options';
import { AppLogger } from '../../common/logging/app-logger';
import { LogEntry } from '../../common/logging/log-ring-buffer';
import { versionInfo } from '../../common/version';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SettingsService } from '../settings';
import { RequestAdmission, type RequestAdmissionInfo } from '../warehouse';
import { ConnectionPoolRegistry, PoolStats } from '../../common/database/connection-pools';
import { UtilRepository } from './util.repository';

/**
 * Settings a bug report shows. An allowlist, not "everything but the sensitive ones": URLs, origins and
 * certificates say who runs the instance and a new secret setting must never leak because nobody added it here.
 */
const REPORTED_SETTINGS = [
  'site-locale',
  'report-timezone',
  'password-complexity',
  'enable-password-login',
  'session-cookie-samesite',
  'anon-tracking-enabled',
  'enable-public-sharing',
  'enable-embedding-static',
  'enable-embedding-sdk',
  'enable-embedding-interactive',
  'jwt-enabled',
  'saml-enabled',
];

const MB = 1024 * 1024;

/** What an admin attaches to a bug report or looks at when the instance misbehaves. Admin-only routes. */
@Injectable()
export class DiagnosticsService {
  constructor(
    private readonly repo: UtilRepository,
    private readonly settings: SettingsService,
    private readonly pools: ConnectionPoolRegistry,
    private readonly admission: RequestAdmission,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  async bugReportDetails() {
    const settings: Record<string, unknown> = {};
    for (const key of REPORTED_SETTINGS) settings[key] = await this.settings.get(key);
    return {
      'system-info': systemInfo(),
      'metabase-info': {
        version: versionInfo(),
        'application-database': appDbKind(this.config),
        // A report is most wanted when the app DB is the trouble; then the rest still comes back.
        'application-database-details': { database: await this.repo.appDbVersion().catch(() => null) },
        'run-mode': runMode(),
        // Warehouse engines are listed once warehouses can be connected.
        databases: [] as string[],
        settings,
      },
    };
  }

  connectionPools(): { 'connection-pools': Record<string, PoolStats>; 'query-requests': RequestAdmissionInfo } {
    return { 'connection-pools': this.pools.snapshot(), 'query-requests': this.admission.info() };
  }

  /** Newest first. Lines are redacted when written (AppLogger), so nothing secret is stored to show. */
  logs(): LogEntry[] {
    return this.logger.buffer.recent();
  }
}

function systemInfo() {
  const mem = process.memoryUsage();
  return {
    'node-version': process.version,
    platform: process.platform,
    arch: process.arch,
    'os-release': os.release(),
    'cpu-count': os.cpus().length,
    'total-memory-mb': Math.round(os.totalmem() / MB),
    'free-memory-mb': Math.round(os.freemem() / MB),
    'process-memory-mb': {
      rss: Math.round(mem.rss / MB),
      'heap-used': Math.round(mem.heapUsed / MB),
      'heap-total': Math.round(mem.heapTotal / MB),
    },
    'system-uptime-seconds': Math.round(os.uptime()),
    'process-uptime-seconds': Math.round(process.uptime()),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

function runMode(): 'prod' | 'dev' | 'test' {
  if (process.env.NODE_ENV === 'development') return 'dev';
  if (process.env.NODE_ENV === 'test') return 'test';
  return 'prod';
}
