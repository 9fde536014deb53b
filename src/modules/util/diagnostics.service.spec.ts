import type { ConnectionPoolRegistry } from '../../common/database/connection-pools';
import type { AppLogger } from '../../common/logging/app-logger';
import type { AppConfig } from '../../config/app-config';
import type { SettingsService } from '../settings';
import type { RequestAdmission } from '../warehouse';
import { DiagnosticsService } from './diagnostics.service';
import type { UtilRepository } from './util.repository';

/** DiagnosticsService: what a bug report tells of the instance; settings and the app DB mocked. */
describe('DiagnosticsService', () => {
  function setup(appDbVersion: Promise<string>) {
    const settings = { get: jest.fn(async (key: string) => `value of ${key}`) };
    const service = new DiagnosticsService(
      { appDbVersion: jest.fn(() => appDbVersion) } as unknown as UtilRepository,
      settings as unknown as SettingsService,
      { snapshot: jest.fn().mockReturnValue({}) } as unknown as ConnectionPoolRegistry,
      { info: jest.fn() } as unknown as RequestAdmission,
      { appDbUrl: undefined } as unknown as AppConfig,
      { buffer: { recent: () => [] } } as unknown as AppLogger,
    );
    return { service, settings };
  }

  it('reports only the allowlisted settings, never secrets, URLs or certificates', async () => {
    const m = setup(Promise.resolve('PostgreSQL 16'));
    const report = await m.service.bugReportDetails();
    const keys = Object.keys(report['metabase-info'].settings);
    expect(keys).toContain('report-timezone');
    expect(keys).toContain('enable-embedding-static');
    for (const secret of [
      'embedding-secret-key',
      'jwt-shared-secret',
      'saml-sp-private-key',
      'site-url',
      'saml-identity-provider-certificate',
    ])
      expect(keys).not.toContain(secret);
    expect(m.settings.get.mock.calls.map((c) => c[0]).sort()).toEqual([...keys].sort());
    expect(report['metabase-info']['application-database-details']).toEqual({ database: 'PostgreSQL 16' });
  });

  it('still answers when the app DB cannot say its version', async () => {
    const report = await setup(Promise.reject(new Error('connection lost'))).service.bugReportDetails();
    expect(report['metabase-info']['application-database-details']).toEqual({ database: null });
    expect(report['system-info']['node-version']).toBe(process.version);
  });
});
