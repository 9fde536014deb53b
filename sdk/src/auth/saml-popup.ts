import { AnalyticsAuthError } from './auth-errors';
import { isSessionAnswer, type SessionAnswer } from './session';
import type { SamlLogin } from './sso-login';

/** The message the server's SAML assertion consumer page posts to `window.opener` when the login was the SDK's. */
export const SAML_MESSAGE_TYPE = 'analytics-sdk:saml-session';

/**
 * A SAML login waiting for a click. Browsers block popups not opened by one, and the provider signs in when it
 * mounts: then the login waits here, the provider shows a sign-in button, and its click opens the popup.
 */
export class SamlPrompt {
  private pending: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  get waiting(): boolean {
    return this.pending !== null;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** From a click handler (a user gesture: the browser lets the popup open). */
  open = (): void => {
    const pending = this.pending;
    this.set(null);
    pending?.();
  };

  ask(openPopup: () => void): void {
    this.set(openPopup);
  }

  private set(pending: (() => void) | null): void {
    this.pending = pending;
    for (const listener of this.listeners) listener();
  }
}

const BLOCKED = 'The SAML login popup was blocked by the browser; allow popups for this site';

/**
 * SAML in a popup: opens the identity provider's login page; the assertion consumer page of the analytics server then
 * posts the session to this window (its origin checked against `analyticsInstanceUrl`) and closes. A popup blocked
 * without a user gesture waits for one through `prompt`; closing the popup first, or a popup blocked even on a
 * click, fails the login.
 */
export function browserSamlLogin(analyticsInstanceUrl: string, prompt?: SamlPrompt): SamlLogin {
  const expectedOrigin = new URL(analyticsInstanceUrl).origin;
  const openPopup = (url: string) => window.open(url, 'analytics-saml-login', 'popup,width=600,height=700');
  return (url: string) =>
    new Promise<SessionAnswer>((resolve, reject) => {
      const first = openPopup(url);
      if (first) follow(first, expectedOrigin, resolve, reject);
      else if (!prompt) reject(new AnalyticsAuthError(BLOCKED));
      else
        prompt.ask(() => {
          const popup = openPopup(url);
          if (popup) follow(popup, expectedOrigin, resolve, reject);
          else reject(new AnalyticsAuthError(BLOCKED));
        });
    });
}

/** How often to look whether the popup was closed. */
const CLOSED_POLL_MS = 400;
/**
 * How long a closed popup may still deliver its message. The page posts, then closes: the opener can see `closed`
 * before the posted message's task runs (timer and message tasks have no order between them), most on a busy machine.
 */
const CLOSED_GRACE_MS = 2_000;

/** Waits for the popup's message with the session, or for it to close without one. */
function follow(popup: Window, expectedOrigin: string, resolve: (s: SessionAnswer) => void, reject: (e: Error) => void): void {
  let closedAt: number | undefined;
  const done = () => {
    window.removeEventListener('message', onMessage);
    clearInterval(watch);
  };
  const onMessage = (e: MessageEvent) => {
    if (e.origin !== expectedOrigin || e.source !== popup) return;
    const data = e.data as { type?: unknown; session?: unknown } | null;
    if (!data || data.type !== SAML_MESSAGE_TYPE) return;
    done();
    if (isSessionAnswer(data.session)) resolve(data.session);
    else reject(new AnalyticsAuthError('The SAML login handed over no session'));
  };
  window.addEventListener('message', onMessage);
  // The popup's own page cannot tell us it was closed: look.
  const watch = setInterval(() => {
    if (!popup.closed) return;
    closedAt ??= Date.now();
    if (Date.now() - closedAt < CLOSED_GRACE_MS) return;
    done();
    reject(new AnalyticsAuthError('The SAML login window was closed before the login finished'));
  }, CLOSED_POLL_MS);
}
