import { AnalyticsAuthError, answerMessage } from './auth-errors';
import type { DefinedAuthConfig } from './config';
import { renewAt, RENEW_MARGIN_MS, type Session, type SessionAnswer } from './session';
import { call, CLIENT_HEADERS, ssoLogin, type SamlLogin } from './sso-login';

export type AuthStatus = { status: 'loading' } | { status: 'success' } | { status: 'error'; error: { message: string } };

export interface AuthClientOptions {
  fetch?: typeof fetch;
  /** Clock, for tests. */
  now?: () => number;
  /** Runs `fn` after `ms`; answers a cancel function (for tests). */
  schedule?: (fn: () => void, ms: number) => () => void;
  /** The SAML popup (the browser's by default, see saml-popup.ts). */
  samlLogin?: SamlLogin;
  renewMarginMs?: number;
  /** Sent as `X-Metabase-Locale` (the provider's `locale`). */
  locale?: string;
}

/**
 * The auth state machine, free of React: one session for all embedded components, in memory only.
 * - Sign-in happens once at a time: concurrent callers share the one promise in flight.
 * - The session is renewed before its token's `exp` (timer, and on use when past the renewal time).
 * - A 401 from the API drops the session (unless another call has replaced it already), signs in again and retries
 *   that request once; a second 401 is the caller's answer.
 * - `apiKey` (development) and `useExistingUserSession` need no sign-in: a first call checks that they work.
 */
export class AuthClient {
  private session: Session | null = null;
  private inFlight: Promise<Session> | null = null;
  private state: AuthStatus = { status: 'loading' };
  private readonly listeners = new Set<() => void>();
  private cancelRenewal: (() => void) | null = null;
  private readonly doFetch: typeof fetch;
  private readonly now: () => number;
  private readonly schedule: (fn: () => void, ms: number) => () => void;
  private closed = false;

  constructor(
    readonly config: DefinedAuthConfig,
    private readonly options: AuthClientOptions = {},
  ) {
    this.doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? Date.now;
    this.schedule =
      options.schedule ??
      ((fn, ms) => {
        const t = setTimeout(fn, Math.min(ms, 2 ** 31 - 1));
        return () => clearTimeout(t);
      });
  }

  get status(): AuthStatus {
    return this.state;
  }

  /** Called on every status change; answers the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A usable session, signing in (or joining the sign-in in flight) when there is none or it is due for renewal. */
  async ensureSession(): Promise<Session> {
    this.closed = false;
    if (this.session && !this.due(this.session)) return this.session;
    try {
      return await this.signIn();
    } catch (e) {
      // A failed renewal: the session in hand still works until its expiry.
      if (this.session && this.valid(this.session)) return this.session;
      throw e;
    }
  }

  /** A request to the analytics server (`path` from its root, e.g. `/api/card/1`) with the session; one retry after a 401. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const session = await this.ensureSession();
    const res = await this.send(path, init, session);
    if (res.status !== 401 || this.config.apiKey || this.config.useExistingUserSession) return res;
    if (this.session === session) this.forget();
    return this.send(path, init, await this.ensureSession());
  }

  /** `fetch`, then the JSON body; a failed answer throws with the server's message. */
  async fetchJson<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await this.fetch(path, init);
    if (!res.ok) throw new AnalyticsAuthError(await answerMessage(res, `HTTP ${res.status} from ${path}`), res.status);
    return (await res.json()) as T;
  }

  /** Stops renewals and drops the session from memory (a later use signs in again). */
  close(): void {
    this.closed = true;
    this.forget();
  }

  private async send(path: string, init: RequestInit, session: Session): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [k, v] of Object.entries(CLIENT_HEADERS)) headers.set(k, v);
    if (session.id) headers.set('X-Metabase-Session', session.id);
    if (this.config.apiKey) headers.set('X-Api-Key', this.config.apiKey);
    if (this.options.locale) headers.set('X-Metabase-Locale', this.options.locale);
    const credentials: RequestCredentials = this.config.useExistingUserSession ? 'include' : 'omit';
    return call(
      this.doFetch,
      `${this.config.analyticsInstanceUrl}${path}`,
      { ...init, headers, credentials },
      `the analytics server at ${this.config.analyticsInstanceUrl}`,
    );
  }

  private valid(s: Session): boolean {
    return s.expiresAt === null || this.now() < s.expiresAt;
  }

  private due(s: Session): boolean {
    const at = renewAt(s, this.options.renewMarginMs ?? RENEW_MARGIN_MS);
    return at !== null && this.now() >= at;
  }

  private signIn(): Promise<Session> {
    if (this.inFlight) return this.inFlight;
    // Keep showing success while a renewal runs: the components already drawn stay usable.
    if (this.state.status === 'error') this.setState({ status: 'loading' });
    const attempt = this.obtain().then(
      (session) => {
        if (this.inFlight === attempt) this.inFlight = null;
        if (this.closed) return session;
        this.session = session;
        this.scheduleRenewal(session);
        this.setState({ status: 'success' });
        return session;
      },
      (e: unknown) => {
        if (this.inFlight === attempt) this.inFlight = null;
        const message = e instanceof Error ? e.message : String(e);
        // A renewal that failed while the session is still valid changes nothing yet: the next use tries again.
        if (this.session && this.valid(this.session)) throw e instanceof Error ? e : new AnalyticsAuthError(message);
        this.session = null;
        if (!this.closed) this.setState({ status: 'error', error: { message } });
        throw e instanceof Error ? e : new AnalyticsAuthError(message);
      },
    );
    this.inFlight = attempt;
    return attempt;
  }

  private async obtain(): Promise<Session> {
    const obtainedAt = this.now();
    if (this.config.apiKey || this.config.useExistingUserSession) {
      const session: Session = { id: null, expiresAt: null, obtainedAt };
      const res = await this.send('/api/user/current', {}, session);
      if (!res.ok) {
        const how = this.config.apiKey ? 'The API key' : 'The existing session';
        throw new AnalyticsAuthError(`${how} was refused: ${await answerMessage(res, `HTTP ${res.status}`)}`, res.status);
      }
      return session;
    }
    const answer: SessionAnswer = await ssoLogin({ config: this.config, fetch: this.doFetch, samlLogin: this.options.samlLogin });
    const expiresAt = typeof answer.exp === 'number' ? answer.exp * 1000 : null;
    return { id: answer.id, expiresAt, obtainedAt };
  }

  private scheduleRenewal(s: Session): void {
    this.cancelRenewal?.();
    this.cancelRenewal = null;
    const at = renewAt(s, this.options.renewMarginMs ?? RENEW_MARGIN_MS);
    if (at === null) return;
    this.cancelRenewal = this.schedule(
      () => {
        this.cancelRenewal = null;
        // A failed renewal shows as the error state; the next use tries again.
        if (!this.closed && this.session === s) this.signIn().catch(() => undefined);
      },
      Math.max(0, at - this.now()),
    );
  }

  private forget(): void {
    this.session = null;
    this.cancelRenewal?.();
    this.cancelRenewal = null;
  }

  private setState(next: AuthStatus): void {
    this.state = next;
    for (const l of [...this.listeners]) l();
  }
}
