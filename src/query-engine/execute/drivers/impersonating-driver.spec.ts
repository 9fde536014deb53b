import type { WarehouseDriver } from './driver';
import { ENGINE_UNSUPPORTED, impersonating } from './impersonating-driver';
import { quoteMysqlIdent } from './mysql.driver';
import { quotePgIdent } from './postgres.driver';

const fake = (engine: WarehouseDriver['engine'] = 'postgres') =>
  ({
    engine,
    query: jest.fn().mockResolvedValue({ columns: [], rows: [] }),
    stream: jest.fn().mockResolvedValue({ columns: [], batches: [], close: async () => undefined }),
  }) as unknown as WarehouseDriver & { query: jest.Mock; stream: jest.Mock };

describe('impersonating', () => {
  it('is the driver itself without a role, and adds the role to every statement with one', async () => {
    const driver = fake();
    expect(impersonating(driver, null)).toBe(driver);
    const as = impersonating(driver, 'sales');
    await as.query('SELECT 1', [], { readOnly: true });
    await as.stream('SELECT 1', [], { maxRows: 5 });
    expect(driver.query).toHaveBeenCalledWith('SELECT 1', [], { readOnly: true, role: 'sales' });
    expect(driver.stream).toHaveBeenCalledWith('SELECT 1', [], { maxRows: 5, role: 'sales' });
  });

  it('is one wrapper per driver and role, so that callers of one role share runs and others do not', () => {
    const driver = fake();
    expect(impersonating(driver, 'a')).toBe(impersonating(driver, 'a'));
    expect(impersonating(driver, 'a')).not.toBe(impersonating(driver, 'b'));
  });

  it('fails every statement, sending none, for a policy that cannot be applied or an engine without roles', async () => {
    const driver = fake();
    await expect(impersonating(driver, new Error('no attribute')).query('SELECT 1')).rejects.toThrow('no attribute');
    const sqlite = fake('sqlite');
    await expect(impersonating(sqlite, 'sales').stream('SELECT 1')).rejects.toThrow(ENGINE_UNSUPPORTED);
    expect(driver.query).not.toHaveBeenCalled();
    expect(sqlite.stream).not.toHaveBeenCalled();
  });
});

describe('role names as identifiers', () => {
  it('double-quotes a Postgres role name, doubling its quotes', () => {
    expect(quotePgIdent('sales')).toBe('"sales"');
    expect(quotePgIdent('a"; DROP TABLE x; --')).toBe('"a""; DROP TABLE x; --"');
    expect(() => quotePgIdent('a\u0000b')).toThrow(/NUL/);
  });

  it('back-quotes a MariaDB role name, doubling its back quotes', () => {
    expect(quoteMysqlIdent('sales')).toBe('`sales`');
    expect(quoteMysqlIdent('a`; DROP TABLE x; --')).toBe('`a``; DROP TABLE x; --`');
    expect(() => quoteMysqlIdent('a\u0000b')).toThrow(/NUL/);
  });
});
