import type { ClusterHandler } from '../../common/cluster/cluster-event';
import type { ClusterEvents } from '../../common/cluster/cluster-events';
import { SecretBox } from '../../common/crypto/secret-box';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { AppConfig } from '../../config/app-config';
import type { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

/** SettingsService with the setting table kept in a Map behind a mocked repository. */
describe('SettingsService', () => {
  function setup(stored: Record<string, string> = {}, secrets = new SecretBox(), refreshSeconds = 3600) {
    const table = new Map(Object.entries(stored));
    const repo = {
      value: jest.fn(async (key: string) => table.get(key) ?? null),
      all: jest.fn(async () => [...table].map(([key, value]) => ({ key, value }))),
      write: jest.fn(async (writes: Array<[string, string | null]>, stamp: [string, string]) => {
        for (const [key, value] of [...writes, stamp]) {
          if (value === null) table.delete(key);
          else table.set(key, value);
        }
      }),
    };
    let handler!: ClusterHandler;
    const events = {
      live: false,
      subscribe: jest.fn((h: ClusterHandler) => (handler = h)),
      publish: jest.fn().mockResolvedValue(undefined),
    };
    const service = new SettingsService(
      repo as unknown as SettingsRepository,
      { settingsRefreshSeconds: refreshSeconds, siteUrl: undefined } as unknown as AppConfig,
      secrets,
      events as unknown as ClusterEvents,
    );
    return { service, table, repo, events, remote: (topic: string) => handler({ topic } as never, 'remote') };
  }
  const validation = async (p: Promise<unknown>) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).errors;
  };

  it("runs a module's write hook with the checked value before storing, and stores nothing when it refuses", async () => {
    const m = setup();
    const hook = jest.fn(async (value: unknown) => {
      if (value === false) throw new MessageError('not now');
    });
    m.service.onWrite('use-tenants', hook);
    await m.service.setMany({ 'use-tenants': 'true', 'site-name': 'Ours' });
    expect(hook).toHaveBeenCalledWith(true);
    expect(await m.service.get('use-tenants')).toBe(true);
    await expect(m.service.setMany({ 'site-name': 'Theirs', 'use-tenants': false })).rejects.toThrow('not now');
    expect([await m.service.get('use-tenants'), await m.service.get('site-name')]).toEqual([true, 'Ours']);
    // A bad value is refused before the hook sees it.
    hook.mockClear();
    await validation(m.service.setMany({ 'use-tenants': 'maybe' }));
    expect(hook).not.toHaveBeenCalled();
  });

  it('validates every value before writing any, with the message of the key that fails', async () => {
    const m = setup();
    expect(await validation(m.service.setMany({ 'site-name': 'Ours', 'password-complexity': 'bogus' }))).toEqual({
      'password-complexity': 'value must be one of: `weak`, `normal`, `strong`.',
    });
    expect(await validation(m.service.setMany({ 'query-caching-ttl-ratio': '1.5' }))).toEqual({
      'query-caching-ttl-ratio': 'value must be an integer.',
    });
    expect(await validation(m.service.setMany({ 'site-url': 'ftp://x' }))).toEqual({
      'site-url': 'value must be an http:// or https:// URL.',
    });
    expect(m.repo.write).not.toHaveBeenCalled();
  });

  it('coerces API values to their type, lower-cases enums, and deletes a setting sent empty', async () => {
    const m = setup({ 'site-name': 'Old' });
    await m.service.setMany({
      'enable-public-sharing': 'true',
      'query-caching-ttl-ratio': '12',
      'password-complexity': 'STRONG',
      'site-name': '',
    });
    expect(Object.fromEntries(m.table)).toMatchObject({
      'enable-public-sharing': 'true',
      'query-caching-ttl-ratio': '12',
      'password-complexity': 'strong',
    });
    expect(m.table.has('site-name')).toBe(false);
    expect(m.table.get('settings-last-updated')).toEqual(expect.any(String));
    await expect(m.service.get('query-caching-ttl-ratio')).resolves.toBe(12);
    await expect(m.service.get('enable-public-sharing')).resolves.toBe(true);
    await expect(m.service.get('site-name')).resolves.toBe('Analytics');
    expect(m.events.publish).toHaveBeenCalledWith({ topic: 'settings' });
  });

  it('refuses unknown, internal and computed keys (404), and keys the environment sets (400 naming the variable)', async () => {
    const m = setup();
    await expect(m.service.setMany({ 'no-such-key': 1 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.service.setMany({ 'setup-token': 'x' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.service.setMany({ 'token-features': {} })).rejects.toBeInstanceOf(NotFoundError);
    process.env.MB_ADMIN_EMAIL = 'env@example.com';
    try {
      const e = await m.service.setMany({ 'admin-email': 'me@example.com' }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MessageError);
      expect((e as MessageError).message).toBe(
        'You cannot update `admin-email` because its value is set by the environment variable MB_ADMIN_EMAIL.',
      );
      await expect(m.service.get('admin-email')).resolves.toBe('env@example.com');
    } finally {
      delete process.env.MB_ADMIN_EMAIL;
    }
  });

  it('seals sensitive values at rest, masks them when read, and keeps the secret when the mask is sent back', async () => {
    const m = setup({}, new SecretBox('a passphrase for the test'));
    const secret = 'a'.repeat(62) + 'f9';
    await m.service.setMany({ 'embedding-secret-key': secret });
    expect(m.table.get('embedding-secret-key')).not.toContain(secret);
    await expect(m.service.get('embedding-secret-key')).resolves.toBe(secret);
    await expect(m.service.readForApi('embedding-secret-key', { isSuperuser: true })).resolves.toBe('**********f9');

    await m.service.setMany({ 'embedding-secret-key': '**********f9', 'site-name': 'X' });
    await expect(m.service.get('embedding-secret-key')).resolves.toBe(secret);
  });

  it('creates an embedding secret key when embedding is turned on without one, and keeps an existing one', async () => {
    const m = setup();
    await m.service.setMany({ 'enable-embedding-static': true });
    expect(m.table.get('embedding-secret-key')).toMatch(/^[0-9a-f]{64}$/);

    const kept = setup({ 'embedding-secret-key': 'b'.repeat(64) });
    await kept.service.setMany({ 'enable-embedding-sdk': 'true' });
    expect(kept.table.get('embedding-secret-key')).toBe('b'.repeat(64));
  });

  it('checks cross-setting rules against the values sent in the same call', async () => {
    const m = setup();
    expect(await validation(m.service.setMany({ 'jwt-enabled': true }))).toEqual({
      'jwt-enabled': 'JWT sign-in cannot be turned on before `jwt-identity-provider-uri` and `jwt-shared-secret` are set.',
    });
    await m.service.setMany({
      'jwt-enabled': true,
      'jwt-identity-provider-uri': 'https://idp.example/jwt',
      'jwt-shared-secret': 'sixteen chars at least',
    });
    await expect(m.service.get('jwt-enabled')).resolves.toBe(true);
  });

  it('reads by visibility: admin keys are 403 for others, internal keys 404; readable() lists by the caller', async () => {
    const m = setup();
    await expect(m.service.readForApi('jwt-group-sync', { isSuperuser: false })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.readForApi('jwt-group-sync', { isSuperuser: true })).resolves.toBe(false);
    await expect(m.service.readForApi('setup-token', { isSuperuser: true })).rejects.toBeInstanceOf(NotFoundError);

    const anonymous = await m.service.readable();
    expect(anonymous).toHaveProperty('site-name');
    expect(anonymous).not.toHaveProperty('admin-email');
    const user = await m.service.readable({ isSuperuser: false });
    expect(user).toHaveProperty('admin-email');
    expect(user).not.toHaveProperty('jwt-group-sync');
    expect(await m.service.readable({ isSuperuser: true })).toHaveProperty('jwt-group-sync');
  });

  it('polls the stamp and re-reads the table only when it moved', async () => {
    const m = setup({ 'site-name': 'First', 'settings-last-updated': 's1' }, new SecretBox(), 0);
    await expect(m.service.get('site-name')).resolves.toBe('First');
    m.table.set('site-name', 'Second');
    await expect(m.service.get('site-name')).resolves.toBe('First');
    expect(m.repo.all).toHaveBeenCalledTimes(1);
    m.table.set('settings-last-updated', 's2');
    await expect(m.service.get('site-name')).resolves.toBe('Second');
    expect(m.repo.all).toHaveBeenCalledTimes(2);
  });

  it('keeps its copy between polls, and drops it when another instance announces a change', async () => {
    const m = setup({ 'site-name': 'First' });
    await expect(m.service.get('site-name')).resolves.toBe('First');
    m.table.set('site-name', 'Second');
    m.remote('users');
    await expect(m.service.get('site-name')).resolves.toBe('First');
    m.remote('settings');
    await expect(m.service.get('site-name')).resolves.toBe('Second');
  });
});
