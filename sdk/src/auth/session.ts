/** A session of the analytics server, kept in memory only (never in storage or cookies the host can read). */
export interface Session {
  /** `X-Metabase-Session` value; null when the API key or the browser's own cookie authenticates instead. */
  id: string | null;
  /** When to consider it gone (ms since epoch): the token's `exp`; null when unknown. */
  expiresAt: number | null;
  /** When it was obtained (ms since epoch). */
  obtainedAt: number;
}

/** What `/auth/sso` answers after a successful exchange (and what the SAML popup hands over). */
export interface SessionAnswer {
  status?: string;
  id: string;
  exp?: number | null;
  iat?: number | null;
}

export function isSessionAnswer(v: unknown): v is SessionAnswer {
  return !!v && typeof v === 'object' && typeof (v as SessionAnswer).id === 'string' && (v as SessionAnswer).id.length > 0;
}

/** Renew this long before expiry, at most half the session's lifetime. */
export const RENEW_MARGIN_MS = 60_000;

export function renewAt(s: Session, margin = RENEW_MARGIN_MS): number | null {
  if (s.expiresAt === null) return null;
  return s.expiresAt - Math.min(margin, (s.expiresAt - s.obtainedAt) / 2);
}
