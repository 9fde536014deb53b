import { retargetedWithKeptSecret, SECRET_MASK } from './database-details';

const stored = { host: 'db.internal', port: 5432, dbname: 'shop', user: 'reader', password: 's3cret', ssl: true };
const pg = (details: Record<string, unknown>) => ({ engine: 'postgres', details });
const check = (
  after: Record<string, unknown>,
  incoming: Record<string, unknown> | undefined = { ...after, password: SECRET_MASK },
  engine = 'postgres',
) => retargetedWithKeptSecret(pg(stored), { engine, details: after }, incoming);

describe('retargetedWithKeptSecret', () => {
  it('names the target settings changed while the masked password is sent back', () => {
    expect(check({ ...stored, host: 'evil.example' })).toEqual(['host']);
    expect(check({ ...stored, port: 6543, user: 'postgres' })).toEqual(['port', 'user']);
    expect(check({ ...stored, ssl: false })).toEqual(['ssl']);
    expect(check({ ...stored, 'ssl-verify': false })).toEqual(['ssl-verify']);
    expect(check({ ...stored, 'ssl-root-cert': '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' })).toEqual([
      'ssl-root-cert',
    ]);
    expect(check(stored, undefined, 'mysql')).toEqual(['engine']);
  });

  it('lets through what cannot send the password elsewhere', () => {
    expect(check({ ...stored, host: 'DB.internal', dbname: 'other' })).toEqual([]);
    expect(retargetedWithKeptSecret(pg({ ...stored, ssl: false }), pg(stored), { ...stored, password: SECRET_MASK })).toEqual([]);
    // the password given again, or none stored
    expect(check({ ...stored, host: 'evil.example' }, { ...stored, host: 'evil.example', password: 'typed-again' })).toEqual([]);
    expect(
      retargetedWithKeptSecret(pg({ ...stored, password: null }), pg({ ...stored, host: 'evil.example' }), { password: SECRET_MASK }),
    ).toEqual([]);
  });
});
