import { AnalyticsAuthError } from './auth-errors';
import { isSessionAnswer, type SessionAnswer } from './session';
import type { SamlLogin } from './sso-login';

/** The message the server's SAML assertion consumer page posts to `window.opener` when the login was the SDK's. */
export const SAML_MESSAGE_TYPE = 'analytics-sdk:saml-session';

/**
 * SAML in a popup: opens the identity provider's login page; the assertion consumer page of the analytics server then
 * posts the session to this window (its origin checked against `analyticsInstanceUrl`) and closes. Closing the popup
 * first, or a blocked popup, fails the login.
 */
export function browserSamlLogin(analyticsInstanceUrl: string): SamlLogin {
  const expectedOrigin = new URL(analyticsInstanceUrl).origin;
  return (url: string) =>
    new Promise<SessionAnswer>((resolve, reject) => {
      const popup = window.open(url, 'analytics-saml-login', 'popup,width=600,height=700');
      if (!popup) {
        reject(new AnalyticsAuthError('The SAML login popup was blocked by the browser; allow popups for this site'));
        return;
      }
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
        if (popup.closed) {
          done();
          reject(new AnalyticsAuthError('The SAML login window was closed before the login finished'));
        }
      }, 400);
    });
}
