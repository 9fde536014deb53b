import type { Request, Response } from 'express';
import { NOT_AT_HAND, type SettingsReader } from '../settings/settings-reader';
import { embeddingHttp } from './embedding-http';

const SETTINGS: Record<string, unknown> = {
  'enable-embedding-sdk': true,
  'embedding-app-origins-sdk': 'https://host.example',
  'enable-embedding-interactive': true,
  'embedding-app-origins-interactive': 'https://a.example https://b.example',
};

/** The three ways settings arrive: at hand, due for a read (peek gives up), or from a reader that cannot peek. */
const readers: Array<[string, SettingsReader]> = [
  ['at hand', { get: async <T>(k: string) => SETTINGS[k] as T, peek: <T>(k: string) => SETTINGS[k] as T }],
  ['due for a read', { get: async <T>(k: string) => SETTINGS[k] as T, peek: () => NOT_AT_HAND }],
  ['without peek', { get: async <T>(k: string) => SETTINGS[k] as T }],
];

/** The same kind of reader over other values. */
function withSettings(reader: SettingsReader, overrides: Record<string, unknown>): SettingsReader {
  const values = { ...SETTINGS, ...overrides };
  return {
    get: async <T>(k: string) => values[k] as T,
    ...(reader.peek ? { peek: <T>(k: string) => (reader.peek!(k) === NOT_AT_HAND ? NOT_AT_HAND : (values[k] as T)) } : {}),
  };
}

function run(settings: SettingsReader, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const set: Record<string, string> = {};
  const res = {
    statusCode: 200,
    setHeader: (k: string, v: string) => void (set[k.toLowerCase()] = v),
    vary: () => undefined,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    end: jest.fn(),
    json: jest.fn(),
  };
  return new Promise<{ headers: Record<string, string>; status: number; passed: boolean }>((resolve) => {
    const done = () => resolve({ headers: set, status: res.statusCode, passed: false });
    res.end.mockImplementation(done);
    res.json.mockImplementation(done);
    embeddingHttp(settings)({ path, method, headers } as unknown as Request, res as unknown as Response, () =>
      resolve({ headers: set, status: res.statusCode, passed: true }),
    );
  });
}

describe.each(readers)('embedding HTTP headers, settings %s', (_name, settings) => {
  it('frames interactive pages only in the allowed origins, public and embed pages anywhere', async () => {
    expect((await run(settings, '/dashboard/1')).headers['content-security-policy']).toBe(
      'frame-ancestors https://a.example https://b.example',
    );
    expect((await run(settings, '/public/dashboard/x')).headers['content-security-policy']).toBe('frame-ancestors *');
  });

  it('answers CORS for an allowed origin only, and preflights itself', async () => {
    const allowed = await run(settings, '/api/user/current', { origin: 'https://host.example' });
    expect(allowed).toMatchObject({ passed: true, headers: { 'access-control-allow-origin': 'https://host.example' } });
    const other = await run(settings, '/api/user/current', { origin: 'https://evil.example' });
    expect(other.passed).toBe(true);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await run(
      settings,
      '/api/card',
      { origin: 'https://host.example', 'access-control-request-method': 'POST' },
      'OPTIONS',
    );
    expect(preflight).toMatchObject({ passed: false, status: 204 });
  });

  it('answers an origin only `*` lets in without credentials; a named one with them', async () => {
    const wildcard = withSettings(settings, { 'embedding-app-origins-sdk': 'https://host.example *' });
    const foreign = await run(
      wildcard,
      '/api/user/current',
      { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    );
    expect(foreign).toMatchObject({ passed: false, status: 204, headers: { 'access-control-allow-origin': 'https://evil.example' } });
    expect(foreign.headers['access-control-allow-credentials']).toBeUndefined();
    const named = await run(wildcard, '/api/user/current', { origin: 'https://host.example' });
    expect(named.headers).toMatchObject({
      'access-control-allow-origin': 'https://host.example',
      'access-control-allow-credentials': 'true',
    });
  });

  it('trusts localhost only while the site is not https', async () => {
    expect(
      (await run(settings, '/api/user/current', { origin: 'http://localhost:5173' })).headers['access-control-allow-credentials'],
    ).toBe('true');
    const https = withSettings(settings, { 'site-url': 'https://analytics.example.com' });
    expect(
      (await run(https, '/api/user/current', { origin: 'http://localhost:5173' })).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });

  it('refuses an API key from an embedding client off localhost', async () => {
    const refused = await run(settings, '/api/user/current', {
      origin: 'https://host.example',
      'x-metabase-client': 'sdk',
      'x-api-key': 'k',
    });
    expect(refused).toMatchObject({ passed: false, status: 401 });
  });
});
