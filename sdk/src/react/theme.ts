import type { CSSProperties } from 'react';

export type ThemePreset = 'light' | 'night' | 'transparent';

/** The provider's `theme`: a preset, or a preset with a few colours and the font. */
export interface AnalyticsTheme {
  preset?: ThemePreset;
  fontFamily?: string;
  colors?: { brand?: string; background?: string; text?: string; border?: string };
}

export interface ResolvedTheme {
  preset: ThemePreset;
  brand: string;
  background: string;
  text: string;
  border: string;
  fontFamily: string;
}

const PRESETS: Record<ThemePreset, Omit<ResolvedTheme, 'preset' | 'fontFamily'>> = {
  light: { brand: '#509ee3', background: '#ffffff', text: '#2e353b', border: '#eeecec' },
  night: { brand: '#509ee3', background: '#1f2325', text: '#e9eaeb', border: '#3a3f42' },
  transparent: { brand: '#509ee3', background: 'transparent', text: 'inherit', border: 'rgba(127,127,127,0.25)' },
};

export function resolveTheme(theme: ThemePreset | AnalyticsTheme | undefined): ResolvedTheme {
  const t: AnalyticsTheme = typeof theme === 'string' ? { preset: theme } : (theme ?? {});
  const preset = t.preset && t.preset in PRESETS ? t.preset : 'light';
  return { preset, ...PRESETS[preset], ...t.colors, fontFamily: t.fontFamily ?? 'Lato, "Helvetica Neue", Helvetica, Arial, sans-serif' };
}

/** CSS variables and base styles of the provider's wrapper; components read the variables. */
export function themeStyle(t: ResolvedTheme): CSSProperties {
  return {
    ['--analytics-brand' as string]: t.brand,
    ['--analytics-bg' as string]: t.background,
    ['--analytics-text' as string]: t.text,
    ['--analytics-border' as string]: t.border,
    color: t.text,
    background: t.background,
    fontFamily: t.fontFamily,
  };
}
