/**
 * Where sign-in may send the browser afterwards: a path on this site only, by the server's `return_to` rule
 * (src/modules/sso/return-to.ts): `/x`, never `//host` or `/\host` (which browsers read as another host), no control
 * characters, at most 2048 characters. The sign-in and setup pages themselves lead home. Anything else: home.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || raw.length > 2048 || !raw.startsWith('/') || raw.startsWith('//')) return '/';
  if (/[\u0000-\u001f\\]/.test(raw)) return '/';
  if (/^\/(auth\/login|setup)(?:[/?#]|$)/.test(raw)) return '/';
  return raw;
}

/** The sign-in page, coming back to `from` (a path with its query and hash) afterwards. */
export function loginPath(from: string): string {
  const back = safeRedirect(from);
  return back === '/' ? '/auth/login' : `/auth/login?redirect=${encodeURIComponent(back)}`;
}
