import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ACCESS_KEY } from '../auth/access.decorator';
import { NOT_AT_HAND, type SettingsReader } from '../settings/settings-reader';
import { CROSS_SITE_REFUSED, CrossSiteGuard, SIGNS_IN } from './cross-site.guard';

const SETTINGS: Record<string, unknown> = {
  'enable-embedding-sdk': true,
  'embedding-app-origins-sdk': 'https://app.customer.test *',
  'enable-embedding-interactive': true,
  'embedding-app-origins-interactive': 'https://portal.customer.test',
  'site-url': 'https://analytics.example.com',
};
const COOKIE = { 'metabase.SESSION': 'k' };

interface Call {
  method?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  level?: string;
  signsIn?: boolean;
  /** The request's own scheme and host (Express's req.protocol and req.host). */
  own?: [string, string];
  settings?: Record<string, unknown>;
  /** A reader that cannot give the settings at once. */
  slow?: boolean;
}

async function verdict(call: Call): Promise<'pass' | 'refused'> {
  const values = { ...SETTINGS, ...call.settings };
  const reader: SettingsReader = {
    get: async <T>(k: string) => values[k] as T,
    peek: <T>(k: string) => (call.slow ? NOT_AT_HAND : (values[k] as T)),
  };
  const reflector = new Reflector();
  jest
    .spyOn(reflector, 'getAllAndOverride')
    .mockImplementation((key: unknown) => (key === ACCESS_KEY ? (call.level ?? 'user') : key === SIGNS_IN ? call.signsIn : undefined));
  const [protocol, host] = call.own ?? ['http', 'analytics.internal:3000'];
  const req = {
    method: call.method ?? 'POST',
    headers: call.headers ?? {},
    cookies: call.cookies ?? COOKIE,
    protocol,
    host,
  } as unknown as Request;
  const ctx = {
    getType: () => 'http',
    getHandler: () => undefined,
    getClass: () => undefined,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  try {
    return (await new CrossSiteGuard(reflector, reader).canActivate(ctx)) ? 'pass' : 'refused';
  } catch (e) {
    expect(e).toMatchObject({ status: 403, message: CROSS_SITE_REFUSED });
    return 'refused';
  }
}

describe('CrossSiteGuard', () => {
  it.each([false, true])('refuses a cookie-authenticated write from another site (settings read later: %s)', async (slow) => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(await verdict({ method, headers: { origin: 'https://evil.example' }, slow })).toBe('refused');
    }
    expect(await verdict({ headers: { origin: 'null' }, slow })).toBe('refused');
    expect(await verdict({ headers: { 'sec-fetch-site': 'cross-site' }, slow })).toBe('refused');
  });

  it('lets reads through, and writes carrying a header credential or no cookie', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(await verdict({ method, headers: { origin: 'https://evil.example' } })).toBe('pass');
    expect(await verdict({ headers: { origin: 'https://evil.example', 'x-metabase-session': 'k' } })).toBe('pass');
    expect(await verdict({ headers: { origin: 'https://evil.example', 'x-api-key': 'mb_x' } })).toBe('pass');
    expect(await verdict({ headers: { origin: 'https://evil.example' }, cookies: {} })).toBe('pass');
    expect(await verdict({ headers: {} })).toBe('pass'); // no Origin: not a browser's cross-site post
    expect(await verdict({ headers: { 'sec-fetch-site': 'same-origin' } })).toBe('pass');
  });

  it("lets this site through: the request's own origin, or the site URL's", async () => {
    expect(await verdict({ headers: { origin: 'http://analytics.internal:3000' } })).toBe('pass');
    expect(await verdict({ headers: { origin: 'https://analytics.example.com' } })).toBe('pass');
    expect(
      await verdict({
        headers: { origin: 'https://analytics.example.com' },
        own: ['https', 'analytics.example.com:443'],
        settings: { 'site-url': null },
      }),
    ).toBe('pass');
    expect(await verdict({ headers: { origin: 'http://analytics.example.com' }, settings: { 'site-url': null } })).toBe('refused');
    expect(await verdict({ headers: { origin: 'https://analytics.internal:3000' } })).toBe('refused'); // another scheme
  });

  it('lets embedding origins trusted with cookies through, not those only `*` lets in', async () => {
    expect(await verdict({ headers: { origin: 'https://app.customer.test' } })).toBe('pass');
    expect(await verdict({ headers: { origin: 'https://portal.customer.test' } })).toBe('pass');
    expect(
      await verdict({ headers: { origin: 'https://portal.customer.test' }, settings: { 'enable-embedding-interactive': false } }),
    ).toBe('refused');
    expect(await verdict({ headers: { origin: 'https://app.customer.test' }, settings: { 'enable-embedding-sdk': false } })).toBe(
      'refused',
    );
    expect(await verdict({ headers: { origin: 'http://localhost:5173' } })).toBe('refused'); // the site is https: not development
    expect(await verdict({ headers: { origin: 'http://localhost:5173' }, settings: { 'site-url': null } })).toBe('pass');
  });

  it('holds a sign-in to the rule without a cookie; leaves the link, token and SSO levels alone', async () => {
    expect(await verdict({ headers: { origin: 'https://evil.example' }, cookies: {}, signsIn: true })).toBe('refused');
    expect(await verdict({ headers: {}, cookies: {}, signsIn: true })).toBe('pass');
    for (const level of ['public-sharing', 'embed', 'sso'])
      expect(await verdict({ headers: { origin: 'https://evil.example' }, level })).toBe('pass');
  });
});
