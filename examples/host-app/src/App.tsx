import { useState, type FormEvent } from 'react';
import { AnalyticsProvider, defineAnalyticsAuthConfig, InteractiveDashboard, InteractiveQuestion, StaticDashboard, StaticQuestion, useAnalyticsAuthStatus } from '@analytics-server/embedding-sdk';
import { ANALYTICS_URL, AUTH_METHOD, DASHBOARD_ID, QUESTION_ID, VIEW } from './config';

// Defined once, outside the components: the provider signs in again whenever this object changes.
// No fetchRequestToken: with JWT the SDK asks the analytics server for the identity provider's URL (this app's
// /sso/analytics) and calls it with response=json and this app's sign-in cookie. With SAML it opens the
// identity provider's login in a popup, which hands the session back when done.
const authConfig = defineAnalyticsAuthConfig({ analyticsInstanceUrl: ANALYTICS_URL, preferredAuthMethod: AUTH_METHOD });

export function App() {
  const [user, setUser] = useState<string | null>(null);
  const [signedOutView, setSignedOutView] = useState(false);
  // With SAML the identity provider signs the user in to the analytics server; this app's own login is not needed.
  if (!user && !signedOutView && AUTH_METHOD === 'jwt') return <Login onSignedIn={setUser} onSkip={() => setSignedOutView(true)} />;
  return (
    <div style={{ padding: 16 }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <strong>Acme Portal</strong>
        <span data-testid="host-user">{user ?? 'not signed in'}</span>
      </header>
      <AnalyticsProvider authConfig={authConfig} theme="light" locale="en">
        <Embeds />
      </AnalyticsProvider>
    </div>
  );
}

/** The embedded analytics, shown only once the SDK has signed in (the status hook). */
function Embeds() {
  const auth = useAnalyticsAuthStatus();
  return (
    <main>
      <p>
        Analytics: <span data-testid="auth-status">{auth.status}</span>
      </p>
      {auth.status === 'error' && (
        <div role="alert" data-testid="auth-error" style={{ color: '#b00020' }}>
          Could not sign in to analytics: {auth.error.message}
        </div>
      )}
      {auth.status === 'success' && VIEW === 'interactive' && (
        <>
          <section style={{ background: 'white', padding: 12, borderRadius: 8, marginBottom: 16 }}>
            <InteractiveDashboard dashboardId={DASHBOARD_ID} />
          </section>
          <section style={{ background: 'white', padding: 12, borderRadius: 8, height: 480 }}>
            <InteractiveQuestion questionId={QUESTION_ID} />
          </section>
        </>
      )}
      {auth.status === 'success' && VIEW === 'static' && (
        <>
          <section style={{ background: 'white', padding: 12, borderRadius: 8, marginBottom: 16 }}>
            <StaticDashboard dashboardId={DASHBOARD_ID} withDownloads />
          </section>
          <section style={{ background: 'white', padding: 12, borderRadius: 8, height: 360 }}>
            <StaticQuestion questionId={QUESTION_ID} withDownloads />
          </section>
        </>
      )}
    </main>
  );
}

function Login({ onSignedIn, onSkip }: { onSignedIn: (email: string) => void; onSkip: () => void }) {
  const [email, setEmail] = useState('rene@example.com');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await fetch('/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
    if (res.ok) onSignedIn(email);
    else setError(((await res.json().catch(() => ({}))) as { message?: string }).message ?? `HTTP ${res.status}`);
  };
  return (
    <form onSubmit={submit} style={{ maxWidth: 320, margin: '80px auto', display: 'flex', flexDirection: 'column', gap: 8 }}>
      <h1>Acme Portal</h1>
      <input name="email" aria-label="Email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <input name="password" aria-label="Password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <button type="submit">Sign in</button>
      {error && <div role="alert">{error}</div>}
      <button type="button" onClick={onSkip} data-testid="skip-login">
        Open the analytics without signing in
      </button>
    </form>
  );
}
