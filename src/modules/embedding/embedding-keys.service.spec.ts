import { QueryFailedError } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box';
import { MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { EmbeddingKeysRepository, EmbeddingKeyWithSecret } from './embedding-keys.repository';
import { EmbeddingKeysService, KEY_REVOKED, KID_TAKEN } from './embedding-keys.service';

/** An in-memory table behind the repository's methods. */
function setup(box = new SecretBox('unit-test-passphrase')) {
  const rows: EmbeddingKeyWithSecret[] = [];
  let raceOnInsert = false;
  const repo = {
    list: async () => rows.map((r) => ({ ...r })),
    findByKid: async (kid: string) => {
      const r = rows.find((x) => x.kid === kid);
      return r ? { ...r } : null;
    },
    insert: async (v: { kid: string; name: string; secret: string }) => {
      if (raceOnInsert || rows.some((r) => r.kid === v.kid)) {
        throw new QueryFailedError('INSERT', [], Object.assign(new Error('unique'), { code: '23505' }));
      }
      rows.push({ id: rows.length + 1, created_at: new Date('2026-01-02T03:04:05Z'), revoked_at: null, ...v });
    },
    replaceSecret: async (kid: string, secret: string) => {
      const r = rows.find((x) => x.kid === kid && !x.revoked_at);
      if (r) r.secret = secret;
      return !!r;
    },
    revoke: async (kid: string, at: Date) => {
      const r = rows.find((x) => x.kid === kid && !x.revoked_at);
      if (r) r.revoked_at = at;
    },
  } as unknown as EmbeddingKeysRepository;
  return { service: new EmbeddingKeysService(repo, box), rows, race: () => (raceOnInsert = true) };
}

describe('EmbeddingKeysService', () => {
  it('generates 256 random bits as hex unless a secret is given, shows it once and stores it sealed', async () => {
    const { service, rows } = setup();
    const made = await service.create({ kid: 'acme', name: 'Acme' });
    expect(made.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(made).toMatchObject({ kid: 'acme', name: 'Acme', masked_secret: `**********${made.secret!.slice(-2)}`, revoked_at: null });
    expect(rows[0].secret).not.toContain(made.secret);
    const given = 'ab'.repeat(40);
    expect((await service.create({ kid: 'globex', name: 'Globex', secret: given })).secret).toBe(given);
    const listed = await service.list();
    expect(listed.map((k) => [k.kid, k.masked_secret])).toEqual([
      ['acme', `**********${made.secret!.slice(-2)}`],
      ['globex', '**********ab'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    expect(listed.every((k) => !('secret' in k))).toBe(true);
    await expect(service.secretFor('acme')).resolves.toBe(made.secret);
  });

  it('refuses a taken kid, also when a concurrent request took it between the check and the insert', async () => {
    const { service, race } = setup();
    await service.create({ kid: 'acme', name: 'Acme' });
    const taken = await service.create({ kid: 'acme', name: 'Other' }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ValidationError);
    expect((taken as ValidationError).errors).toEqual({ kid: KID_TAKEN });
    race();
    await expect(service.create({ kid: 'initech', name: 'Initech' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('rotates to a new secret and revokes for good: the old secret and the revoked kid verify nothing', async () => {
    const { service } = setup();
    const first = await service.create({ kid: 'acme', name: 'Acme' });
    const rotated = await service.rotate('acme');
    expect(rotated.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.secret).not.toBe(first.secret);
    await expect(service.secretFor('acme')).resolves.toBe(rotated.secret);
    await service.revoke('acme');
    await expect(service.secretFor('acme')).resolves.toBeNull();
    const revokedAt = (await service.list())[0].revoked_at;
    expect(revokedAt).not.toBeNull();
    // Twice is fine and keeps the first instant; rotating a revoked key is refused.
    await service.revoke('acme');
    expect((await service.list())[0].revoked_at).toBe(revokedAt);
    await expect(service.rotate('acme')).rejects.toThrow(new MessageError(KEY_REVOKED));
  });

  it('answers 404 for an unknown kid and never looks up one that could not exist', async () => {
    const { service } = setup();
    await expect(service.rotate('nobody')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.revoke('nobody')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.secretFor('nobody')).resolves.toBeNull();
    await expect(service.secretFor('../x y')).resolves.toBeNull();
    await expect(service.secretFor('x'.repeat(65))).resolves.toBeNull();
  });

  it('stores secrets as they are when no ENCRYPTION_KEY is set, and still opens them', async () => {
    const { service, rows } = setup(new SecretBox());
    const made = await service.create({ kid: 'acme', name: 'Acme' });
    expect(rows[0].secret).toBe(made.secret);
    await expect(service.secretFor('acme')).resolves.toBe(made.secret);
  });
});
