/**
 * Where the analytics server is and what to embed: build-time `VITE_*` variables, overridable in the page's query
 * (`?analytics=http://localhost:3000&dashboard=1&question=2`) so one build serves any setup.
 */
const query = new URLSearchParams(window.location.search);
const env = (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};

export const ANALYTICS_URL = query.get('analytics') ?? env.VITE_ANALYTICS_URL ?? 'http://localhost:3000';
export const DASHBOARD_ID = Number(query.get('dashboard') ?? env.VITE_DASHBOARD_ID ?? 1);
export const QUESTION_ID = Number(query.get('question') ?? env.VITE_QUESTION_ID ?? 1);
/** `jwt` (the default) or `saml` (the identity provider's login opens in a popup). */
export const AUTH_METHOD: 'jwt' | 'saml' = (query.get('auth') ?? env.VITE_AUTH_METHOD) === 'saml' ? 'saml' : 'jwt';
/** `static` (the default) or `interactive` (InteractiveDashboard and InteractiveQuestion). */
export const VIEW: 'static' | 'interactive' = query.get('view') === 'interactive' ? 'interactive' : 'static';
