import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { AuthClient } from '../auth/auth-client';
import type { DefinedAuthConfig } from '../auth/config';
import { browserSamlLogin, SamlPrompt } from '../auth/saml-popup';
import { AnalyticsContext } from './context';
import { resolveTheme, themeStyle, type AnalyticsTheme, type ThemePreset } from './theme';

export interface AnalyticsProviderProps {
  /** From `defineAnalyticsAuthConfig(...)`; keep it stable (define it outside the component or memoize it). */
  authConfig: DefinedAuthConfig;
  className?: string;
  theme?: ThemePreset | AnalyticsTheme;
  /** e.g. `de`, sent to the server and used for the page's number and date formats. */
  locale?: string;
  children?: ReactNode;
}

/** Signs in once for all the embedded components inside it, and themes them. */
export function AnalyticsProvider({ authConfig, className, theme, locale, children }: AnalyticsProviderProps) {
  if (!authConfig || (authConfig as { __defined?: boolean }).__defined !== true) {
    throw new Error('AnalyticsProvider: pass `authConfig={defineAnalyticsAuthConfig({...})}`');
  }
  const prompt = useMemo(() => new SamlPrompt(), []);
  const client = useMemo(
    () =>
      new AuthClient(authConfig, {
        locale,
        samlLogin: typeof window === 'undefined' ? undefined : browserSamlLogin(authConfig.analyticsInstanceUrl, prompt),
      }),
    [authConfig, locale, prompt],
  );
  const waitingForClick = useSyncExternalStore(
    prompt.subscribe,
    () => prompt.waiting,
    () => false,
  );
  useEffect(() => {
    client.ensureSession().catch(() => undefined); // the error state shows it
    return () => client.close();
  }, [client]);
  const resolved = useMemo(() => resolveTheme(theme), [theme]);
  const value = useMemo(() => ({ client, theme: resolved, locale }), [client, resolved, locale]);
  return (
    <AnalyticsContext.Provider value={value}>
      <div className={className} lang={locale} data-analytics-theme={resolved.preset} style={themeStyle(resolved)}>
        {waitingForClick && (
          // The browser blocked the SAML popup opened on mount: a click may open it.
          <div data-testid="analytics-sign-in" role="status" style={{ padding: '12px 0' }}>
            <button type="button" onClick={prompt.open}>
              Sign in to see the analytics
            </button>
          </div>
        )}
        {children}
      </div>
    </AnalyticsContext.Provider>
  );
}
