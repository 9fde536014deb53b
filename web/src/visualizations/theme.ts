import type { Theme } from './types';

/** Colors of the three embedding themes (Metabase's light, night and transparent) and the series palette. */
export interface Palette {
  background: string;
  text: string;
  textMuted: string;
  border: string;
  grid: string;
  headerBackground: string;
  hover: string;
  goal: string;
  positive: string;
  negative: string;
}

/** Metabase's accent colors, in the order it gives them to series. */
export const SERIES_COLORS = [
  '#509EE3',
  '#88BF4D',
  '#A989C5',
  '#EF8C8C',
  '#F9D45C',
  '#F2A86F',
  '#98D9D9',
  '#7172AD',
  '#6450E3',
  '#4DBF5E',
  '#C589B9',
  '#EFA48C',
];

const LIGHT: Palette = {
  background: '#FFFFFF',
  text: '#4C5773',
  // Metabase's text-medium: its older #949AAB on the header background (2.7:1) fails WCAG AA, as axe reports in the app.
  textMuted: '#696E7B',
  border: '#EEECEC',
  grid: '#EEECEC',
  headerBackground: '#F9FBFC',
  hover: '#F2F7FD',
  goal: '#4C5773',
  positive: '#84BB4C',
  negative: '#ED6E6E',
};

const NIGHT: Palette = {
  background: '#2E353B',
  text: '#FFFFFF',
  textMuted: '#B8BBC3',
  border: '#4C5773',
  grid: '#4C5773',
  headerBackground: '#363D44',
  hover: '#3B444D',
  goal: '#FFFFFF',
  positive: '#84BB4C',
  negative: '#ED6E6E',
};

export function palette(theme: Theme): Palette {
  if (theme === 'night') return NIGHT;
  if (theme === 'transparent') return { ...LIGHT, background: 'transparent', headerBackground: 'transparent' };
  return LIGHT;
}

export function seriesColor(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length];
}

export const FONT_FAMILY = 'Lato, "Helvetica Neue", Helvetica, Arial, sans-serif';
