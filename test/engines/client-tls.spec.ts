import { validateDetails } from '../../src/query-engine/execute/drivers';
import { mysqlConnectionOptions } from '../../src/query-engine/execute/drivers/mysql-options';
import { postgresClientConfig } from '../../src/query-engine/execute/drivers/postgres.driver';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Fub3RBUmVhbENlcnRpZmljYXRl\nZm9yVGVzdHM=\n-----END CERTIFICATE-----\n';
const base = { host: 'db.example', dbname: 'shop', user: 'ana', password: 'pw' };

/** The TLS options each driver's client gets from validated details. */
const clients = {
  postgres: (details: Record<string, unknown>) => postgresClientConfig(validateDetails('postgres', details, { dataDir: '/tmp' })).ssl,
  mysql: (details: Record<string, unknown>) => mysqlConnectionOptions(validateDetails('mysql', details, { dataDir: '/tmp' })).ssl,
};

describe.each(['postgres', 'mysql'] as const)('%s client TLS', (engine) => {
  const tls = clients[engine];

  it('verifies the server certificate whenever ssl is on', () => {
    expect(tls({ ...base, ssl: true })).toEqual({ rejectUnauthorized: true });
    expect(tls({ ...base, 'ssl-mode': 'require' })).toEqual({ rejectUnauthorized: true });
    expect(tls({ ...base, 'ssl-mode': 'verify-full' })).toEqual({ rejectUnauthorized: true });
    expect(tls({ ...base, ssl: true, 'ssl-verify': true })).toEqual({ rejectUnauthorized: true });
    expect(tls({ ...base, ssl: true, 'ssl-verify': null })).toEqual({ rejectUnauthorized: true });
  });

  it('trusts the CA certificate given in ssl-root-cert', () => {
    expect(tls({ ...base, ssl: true, 'ssl-root-cert': CA })).toEqual({ rejectUnauthorized: true, ca: CA.trim() });
  });

  it('skips verification only with an explicit ssl-verify false', () => {
    expect(tls({ ...base, ssl: true, 'ssl-verify': false })).toEqual({ rejectUnauthorized: false });
  });

  it('uses no TLS without ssl', () => {
    expect(tls({ ...base })).toBeFalsy();
    expect(tls({ ...base, ssl: false, 'ssl-root-cert': CA })).toBeFalsy();
  });

  it('keeps ssl-verify and ssl-root-cert in the validated details only when set', () => {
    const engineDetails = (d: Record<string, unknown>) => validateDetails(engine, d, { dataDir: '/tmp' });
    expect(engineDetails({ ...base, ssl: true })).not.toHaveProperty('ssl-verify');
    expect(engineDetails({ ...base, ssl: true, 'ssl-verify': false })).toMatchObject({ 'ssl-verify': false });
    expect(engineDetails({ ...base, ssl: true, 'ssl-root-cert': CA })).toMatchObject({ 'ssl-root-cert': CA.trim() });
  });
});
