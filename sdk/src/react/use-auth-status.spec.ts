import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { AuthClient } from '../auth/auth-client';
import { validateAuthConfig } from '../auth/config';
import { AnalyticsContext } from './context';
import { resolveTheme } from './theme';
import { useAnalyticsAuthStatus } from './use-auth-status';

function Status() {
  const s = useAnalyticsAuthStatus();
  return createElement('span', null, s.status === 'error' ? `error: ${s.error.message}` : s.status);
}

describe('useAnalyticsAuthStatus', () => {
  it('throws a clear error outside AnalyticsProvider', () => {
    expect(() => renderToString(createElement(Status))).toThrow(
      'useAnalyticsAuthStatus() must be used inside <AnalyticsProvider authConfig={...}>',
    );
  });

  it('reads the provider client status: loading, then what the sign-in ended with', async () => {
    const config = validateAuthConfig({ analyticsInstanceUrl: 'https://analytics.example.com' }, 'https://app.example.com');
    const fetch = (async () =>
      new Response(JSON.stringify({ message: 'The embedding SDK is not enabled.' }), { status: 403 })) as typeof globalThis.fetch;
    const client = new AuthClient(config, { fetch });
    const render = () =>
      renderToString(createElement(AnalyticsContext.Provider, { value: { client, theme: resolveTheme('light') } }, createElement(Status)));
    expect(render()).toBe('<span>loading</span>');
    await client.ensureSession().catch(() => undefined);
    expect(render()).toBe('<span>error: Could not start the sign-in: The embedding SDK is not enabled.</span>');
  });
});
