import { createContext, useContext } from 'react';
import type { AuthClient } from '../auth/auth-client';
import type { ResolvedTheme } from './theme';

export interface AnalyticsContextValue {
  client: AuthClient;
  theme: ResolvedTheme;
  locale?: string;
}

export const AnalyticsContext = createContext<AnalyticsContextValue | null>(null);

/** The provider's value; `who` names the hook or component in the error thrown outside a provider. */
export function useAnalyticsContext(who: string): AnalyticsContextValue {
  const value = useContext(AnalyticsContext);
  if (!value)
    throw new Error(
      `${who} must be used inside <AnalyticsProvider authConfig={...}> (wrap your app, or this part of it, in the provider).`,
    );
  return value;
}
