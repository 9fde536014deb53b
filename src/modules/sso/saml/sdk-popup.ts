import { sdkOriginTrust, type EmbeddingOrigins } from '../../../common/http/origin-policy';
import { parseOrigin } from '../../../common/http/origins';

/**
 * SAML for the React embedding SDK: the SDK opens the identity provider in a popup; when the assertion consumer has
 * signed the user in, it answers a small page that posts the session to `window.opener` with the targetOrigin
 * restricted to the page that asked, and closes itself. That page must be trusted with credentials by the SDK's CORS
 * (origin-policy.ts): named in `embedding-app-origins-sdk` (not merely let in by `*`, which never gets credentials,
 * and a session is one), localhost only in development, or this site itself.
 * The pending SAML request carries that origin instead of a return path, so only a login the SDK started ends this way.
 */
const PREFIX = 'sdk-popup:';
export const SDK_SAML_MESSAGE = 'analytics-sdk:saml-session';
export const SDK_ORIGIN_REFUSED = 'This origin may not embed with the SDK: add it to `embedding-app-origins-sdk` (Admin > Embedding).';

/** The origin the popup may hand the session to, when the SDK's page may embed: answers null otherwise. */
export function allowedSdkOrigin(origin: string | undefined, settings: EmbeddingOrigins, ownOrigin: string | undefined): string | null {
  if (!origin || !parseOrigin(origin)) return null;
  const normal = new URL(origin).origin;
  if (normal === ownOrigin || sdkOriginTrust(settings, normal) === 'credentials') return normal;
  return null;
}

export const popupReturnTo = (origin: string) => `${PREFIX}${origin}`;

/** The SDK page's origin when the pending request was the SDK's popup login. */
export function popupOrigin(returnTo: string | null | undefined): string | null {
  if (!returnTo?.startsWith(PREFIX)) return null;
  const origin = returnTo.slice(PREFIX.length);
  return parseOrigin(origin) ? origin : null;
}

/** The page the popup ends on: posts `{type, session: {id, exp: null}}` to the opener at `origin`, then closes. */
export function popupPage(origin: string, sessionId: string): string {
  // JSON inside <script>: `<` escaped so no `</script>` can end it early.
  const data = JSON.stringify({ origin, message: { type: SDK_SAML_MESSAGE, session: { status: 'ok', id: sessionId, exp: null } } }).replace(
    /</g,
    '\\u003c',
  );
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>Signed in</title></head><body>' +
    '<p>Signed in. You can close this window.</p>' +
    `<script>(function(){var d=${data};if(window.opener){window.opener.postMessage(d.message,d.origin);}window.close();})();</script>` +
    '</body></html>'
  );
}
