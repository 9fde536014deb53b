import { AuthClient } from './auth-client';
import { validateAuthConfig, type AnalyticsAuthConfig } from './config';

const BASE = 'https://analytics.example.com';
const IDP = 'https://app.example.com/sso/analytics';

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body?: string;
  credentials?: RequestCredentials;
}

/** A fake network: the server's /auth/sso, the customer backend's IdP and an API that knows the sessions handed out. */
function fakeServer(
  opts: { idpStatus?: number; method?: 'jwt' | 'saml'; exp?: (now: number) => number | null; startStatus?: number } = {},
) {
  const calls: Call[] = [];
  const live = new Set<string>();
  let sessions = 0;
  let clock = 1_700_000_000_000;
  let gate: Promise<void> = Promise.resolve();
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const headers = new Headers(init.headers);
    calls.push({ url, method: init.method ?? 'GET', headers, body: init.body as string | undefined, credentials: init.credentials });
    await gate;
    if (url.startsWith(`${BASE}/auth/sso`) && (init.method ?? 'GET') === 'GET') {
      if (opts.startStatus) return json(opts.startStatus, { message: 'The embedding SDK is not enabled.' });
      return json(200, { url: opts.method === 'saml' ? 'https://idp.example.com/saml' : IDP, method: opts.method ?? 'jwt' });
    }
    if (url.startsWith(IDP)) {
      if (opts.idpStatus) return json(opts.idpStatus, { status: 'error', message: 'You are not signed in.' });
      return json(200, { jwt: `token-${calls.length}` });
    }
    if (url === `${BASE}/auth/sso` && init.method === 'POST') {
      const id = `session-${++sessions}`;
      live.add(id);
      const exp = opts.exp ? opts.exp(clock) : Math.floor(clock / 1000) + 600;
      return json(200, { status: 'ok', id, exp, iat: Math.floor(clock / 1000) });
    }
    if (url.startsWith(`${BASE}/api/`)) {
      const s = headers.get('X-Metabase-Session');
      if (!s || !live.has(s)) return new Response('Unauthenticated', { status: 401 });
      return json(200, { ok: true, session: s });
    }
    return new Response('not found', { status: 404 });
  };
  return {
    fetch,
    calls,
    live,
    logins: () => calls.filter((c) => c.method === 'POST' && c.url === `${BASE}/auth/sso`).length,
    now: () => clock,
    advance: (ms: number) => (clock += ms),
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => release();
    },
  };
}

function client(
  server: ReturnType<typeof fakeServer>,
  config: Partial<AnalyticsAuthConfig> = {},
  extra: Partial<ConstructorParameters<typeof AuthClient>[1]> = {},
) {
  const timers: { fn: () => void; at: number; cancelled: boolean }[] = [];
  const c = new AuthClient(validateAuthConfig({ analyticsInstanceUrl: BASE, ...config }, 'https://app.example.com'), {
    fetch: server.fetch as typeof fetch,
    now: server.now,
    schedule: (fn, ms) => {
      const t = { fn, at: server.now() + ms, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
    ...extra,
  });
  /** Runs the timers due by now. */
  const tick = () => {
    for (const t of timers.splice(0)) {
      if (t.cancelled) continue;
      if (t.at <= server.now()) t.fn();
      else timers.push(t);
    }
  };
  return { c, timers, tick };
}

describe('AuthClient (JWT)', () => {
  it('signs in through /auth/sso: IdP URL, token (response=json, credentials), exchange; then the API with the session', async () => {
    const s = fakeServer();
    const { c } = client(s);
    expect(c.status).toEqual({ status: 'loading' });
    const seen: string[] = [];
    c.subscribe(() => seen.push(c.status.status));
    const body = await c.fetchJson<{ session: string }>('/api/card/1');
    expect(body.session).toBe('session-1');
    expect(c.status).toEqual({ status: 'success' });
    expect(seen).toEqual(['success']);
    const [start, idp, exchange, api] = s.calls;
    expect(start.url).toBe(`${BASE}/auth/sso`);
    expect(start.headers.get('X-Metabase-Client')).toBe('embedding-sdk-react');
    expect(start.headers.get('X-Metabase-Client-Version')).toMatch(/^\d+\.\d+\.\d+$/);
    expect(idp).toMatchObject({ url: `${IDP}?response=json`, credentials: 'include' });
    expect(exchange).toMatchObject({ url: `${BASE}/auth/sso`, method: 'POST', body: JSON.stringify({ jwt: 'token-2' }) });
    expect(exchange.headers.get('Content-Type')).toBe('application/json');
    expect(api.headers.get('X-Metabase-Session')).toBe('session-1');
    expect(api.credentials).toBe('omit');
  });

  it('uses fetchRequestToken instead of the IdP URL, asking the server for JWT', async () => {
    const s = fakeServer();
    const fetchRequestToken = jest.fn(async () => ({ jwt: 'custom' }));
    const { c } = client(s, { fetchRequestToken });
    await c.ensureSession();
    expect(fetchRequestToken).toHaveBeenCalledTimes(1);
    expect(s.calls.map((x) => x.url)).toEqual([`${BASE}/auth/sso?preferred_method=jwt`, `${BASE}/auth/sso`]);
    expect(s.calls[1].body).toBe(JSON.stringify({ jwt: 'custom' }));
  });

  it('many components at once share one login', async () => {
    const s = fakeServer();
    const { c } = client(s);
    const release = s.hold();
    const all = Promise.all(Array.from({ length: 8 }, (_, i) => c.fetchJson(`/api/card/${i + 1}`)));
    release();
    const answers = (await all) as { session: string }[];
    expect(s.logins()).toBe(1);
    expect(new Set(answers.map((a) => a.session))).toEqual(new Set(['session-1']));
    expect(s.calls.filter((x) => x.url.startsWith(IDP))).toHaveLength(1);
  });

  it('renews the session before the token expires (timer), keeping success meanwhile', async () => {
    const s = fakeServer();
    const { c, timers, tick } = client(s);
    await c.ensureSession();
    expect(timers).toHaveLength(1);
    expect(timers[0].at).toBe(s.now() + 600_000 - 60_000);
    const statuses: string[] = [];
    c.subscribe(() => statuses.push(c.status.status));
    s.advance(540_000);
    tick();
    expect(c.status.status).toBe('success');
    const renewed = await c.ensureSession();
    expect(renewed.id).toBe('session-2');
    expect(s.logins()).toBe(2);
    expect(statuses).not.toContain('loading');
  });

  it('renews on use when the renewal time has passed (e.g. a sleeping tab), and never for a token without exp', async () => {
    const s = fakeServer();
    const { c } = client(s);
    await c.ensureSession();
    s.advance(590_000);
    expect((await c.ensureSession()).id).toBe('session-2');
    const s2 = fakeServer({ exp: () => null });
    const { c: c2, timers } = client(s2);
    await c2.ensureSession();
    s2.advance(10 * 86_400_000);
    expect((await c2.ensureSession()).id).toBe('session-1');
    expect(timers).toHaveLength(0);
  });

  it('a failed renewal keeps the session while it is valid; once expired the failure is the error state', async () => {
    const s = fakeServer();
    let idpDown = false;
    const flaky = (async (input: RequestInfo | URL, init?: RequestInit) =>
      idpDown && String(input).startsWith(IDP)
        ? new Response(JSON.stringify({ status: 'error', message: 'backend down' }), { status: 503 })
        : s.fetch(input, init)) as typeof fetch;
    const { c } = client({ ...s, fetch: flaky });
    await c.ensureSession();
    idpDown = true;
    s.advance(550_000); // due for renewal, not expired
    expect((await c.ensureSession()).id).toBe('session-1');
    expect(c.status.status).toBe('success');
    s.advance(60_000); // expired
    await expect(c.ensureSession()).rejects.toThrow('backend down');
    expect(c.status).toEqual({ status: 'error', error: { message: 'The identity provider refused the sign-in: backend down' } });
    idpDown = false;
    expect((await c.ensureSession()).id).toBe('session-2');
    expect(c.status.status).toBe('success');
  });

  it('after a 401 signs in again and retries the request once', async () => {
    const s = fakeServer();
    const { c } = client(s);
    await c.ensureSession();
    s.live.clear(); // the server forgot the session (logout, expiry, restart)
    const again = await c.fetchJson<{ session: string }>('/api/dashboard/1');
    expect(again.session).toBe('session-2');
    expect(s.logins()).toBe(2);
    const apiCalls = s.calls.filter((x) => x.url === `${BASE}/api/dashboard/1`);
    expect(apiCalls.map((x) => x.headers.get('X-Metabase-Session'))).toEqual(['session-1', 'session-2']);
  });

  it('retries only once: a second 401 is the answer; concurrent 401s share the new login', async () => {
    const s = fakeServer();
    const { c } = client(s);
    await c.ensureSession();
    s.live.clear();
    const both = await Promise.all([c.fetch('/api/card/1'), c.fetch('/api/card/2')]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(s.logins()).toBe(2);
    // A server that refuses every session: one retry, then the 401 is returned.
    const origFetch = s.fetch;
    const refusing = (async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes('/api/') ? new Response('Unauthenticated', { status: 401 }) : origFetch(input, init)) as typeof fetch;
    const { c: c2 } = client({ ...s, fetch: refusing });
    const before = s.logins();
    const res = await c2.fetch('/api/card/1');
    expect(res.status).toBe(401);
    expect(s.logins() - before).toBe(2);
    await expect(c2.fetchJson('/api/card/1')).rejects.toThrow('Unauthenticated');
  });
});

describe('AuthClient error paths', () => {
  it('the customer backend answering 401 is the error state with its message; the next use tries again', async () => {
    const s = fakeServer({ idpStatus: 401 });
    const { c } = client(s);
    await expect(c.ensureSession()).rejects.toThrow('The identity provider refused the sign-in: You are not signed in.');
    expect(c.status).toEqual({ status: 'error', error: { message: 'The identity provider refused the sign-in: You are not signed in.' } });
    await expect(c.fetch('/api/card/1')).rejects.toThrow('You are not signed in.');
    expect(s.calls.filter((x) => x.url.startsWith(IDP))).toHaveLength(2);
  });

  it('the server refusing the SDK, bad tokens from fetchRequestToken, unreachable hosts', async () => {
    const off = client(fakeServer({ startStatus: 403 })).c;
    await expect(off.ensureSession()).rejects.toThrow('Could not start the sign-in: The embedding SDK is not enabled.');
    const bad = client(fakeServer(), { fetchRequestToken: async () => ({ token: 'x' }) as unknown as { jwt: string } }).c;
    await expect(bad.ensureSession()).rejects.toThrow('`fetchRequestToken` must resolve to `{ jwt: <string> }`');
    const throwing = client(fakeServer(), { fetchRequestToken: async () => Promise.reject(new Error('backend down')) }).c;
    await expect(throwing.ensureSession()).rejects.toThrow('`fetchRequestToken` failed: backend down');
    const s = fakeServer();
    const down = client({ ...s, fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch }).c;
    await expect(down.ensureSession()).rejects.toThrow(`Could not reach the analytics server at ${BASE} (Failed to fetch; is CORS set up`);
  });

  it('a refused exchange is an error with the server message', async () => {
    const s = fakeServer();
    const refusing = (async (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST'
        ? new Response(JSON.stringify({ message: 'Invalid JWT' }), { status: 401 })
        : s.fetch(input, init)) as typeof fetch;
    const { c } = client({ ...s, fetch: refusing });
    await expect(c.ensureSession()).rejects.toThrow('The analytics server refused the token: Invalid JWT');
    expect(c.status.status).toBe('error');
  });
});

describe('AuthClient (SAML, API key, existing session)', () => {
  it('SAML: hands the IdP URL to the popup and keeps the session it returns', async () => {
    const s = fakeServer({ method: 'saml' });
    const samlLogin = jest.fn(async () => ({ id: 'saml-session', exp: null }));
    const { c } = client(s, { preferredAuthMethod: 'saml' }, { samlLogin });
    expect((await c.ensureSession()).id).toBe('saml-session');
    expect(samlLogin).toHaveBeenCalledWith('https://idp.example.com/saml');
    expect(s.calls[0].url).toBe(`${BASE}/auth/sso?preferred_method=saml`);
    const failing = client(
      fakeServer({ method: 'saml' }),
      {},
      { samlLogin: async () => Promise.reject(new Error('The SAML login window was closed')) },
    ).c;
    await expect(failing.ensureSession()).rejects.toThrow('window was closed');
  });

  it('API key: X-Api-Key on every call, checked once, no /auth/sso', async () => {
    const calls: Headers[] = [];
    const fetch = (async (_u: RequestInfo | URL, init?: RequestInit) => {
      calls.push(new Headers(init?.headers));
      return new Response('{}', { status: 200 });
    }) as typeof globalThis.fetch;
    const c = new AuthClient(validateAuthConfig({ analyticsInstanceUrl: BASE, apiKey: 'mb_dev' }, 'http://localhost:5173'), { fetch });
    await c.fetch('/api/card/1');
    expect(calls.map((h) => h.get('X-Api-Key'))).toEqual(['mb_dev', 'mb_dev']);
    expect(calls.every((h) => h.get('X-Metabase-Session') === null)).toBe(true);
    expect(c.status.status).toBe('success');
  });

  it('existing session: credentials included; a refused cookie is the error state', async () => {
    const seen: (RequestCredentials | undefined)[] = [];
    const fetch = (async (_u: RequestInfo | URL, init?: RequestInit) => {
      seen.push(init?.credentials);
      return new Response('Unauthenticated', { status: 401 });
    }) as typeof globalThis.fetch;
    const c = new AuthClient(validateAuthConfig({ analyticsInstanceUrl: BASE, useExistingUserSession: true }, 'https://app.example.com'), {
      fetch,
    });
    await expect(c.ensureSession()).rejects.toThrow('The existing session was refused: Unauthenticated');
    expect(seen).toEqual(['include']);
  });
});
