/** The React embedding package of the analytics server. */
export { defineAnalyticsAuthConfig, AnalyticsConfigError } from './auth/config';
export type { AnalyticsAuthConfig, AuthMethod, DefinedAuthConfig } from './auth/config';
export { AuthClient } from './auth/auth-client';
export type { AuthStatus, AuthClientOptions } from './auth/auth-client';
export { AnalyticsAuthError } from './auth/auth-errors';
export { AnalyticsProvider } from './react/AnalyticsProvider';
export type { AnalyticsProviderProps } from './react/AnalyticsProvider';
export type { AnalyticsTheme, ThemePreset } from './react/theme';
export { useAnalyticsAuthStatus } from './react/use-auth-status';
export { StaticQuestion } from './react/StaticQuestion';
export type { StaticQuestionProps } from './react/StaticQuestion';
export { StaticDashboard } from './react/StaticDashboard';
export type { StaticDashboardProps } from './react/StaticDashboard';
export type { ParameterValue, ParameterValues } from './react/parameters';
export { SDK_VERSION } from './version';
