import type { Theme } from './visualizations';

/** The display options of a public or embed page, from the URL hash (Metabase's names). */
export interface PageOptions {
  bordered: boolean;
  titled: boolean;
  theme: Theme;
  /** Slugs of parameters not to show (their values still apply). */
  hideParameters: string[];
  hideDownloadButton: boolean;
  font: string | null;
  locale: string | null;
  /** Seconds between reloads of a dashboard's cards; null: never. */
  refresh: number | null;
}

const OPTION_KEYS = new Set(['bordered', 'titled', 'theme', 'hide_parameters', 'hide_download_button', 'font', 'locale', 'refresh']);

const flag = (v: string | null, fallback: boolean) => (v === null ? fallback : v !== 'false' && v !== '0');

/** `#bordered=false&theme=night&category=Widget`: the options, and the other keys as parameter defaults by slug. */
export function parseHash(hash: string): { options: PageOptions; defaults: Record<string, string[]> } {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const theme = q.get('theme');
  const refresh = Number(q.get('refresh'));
  const options: PageOptions = {
    bordered: flag(q.get('bordered'), true),
    titled: flag(q.get('titled'), true),
    theme: theme === 'night' || theme === 'transparent' ? theme : 'light',
    hideParameters: (q.get('hide_parameters') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    hideDownloadButton: flag(q.get('hide_download_button'), false),
    font: q.get('font') || null,
    locale: q.get('locale') || null,
    refresh: Number.isFinite(refresh) && refresh > 0 ? Math.max(refresh, 5) : null,
  };
  const defaults: Record<string, string[]> = {};
  for (const [k, v] of q) if (!OPTION_KEYS.has(k)) (defaults[k] ??= []).push(v);
  return { options, defaults };
}

/** The page-wide look: theme colors as CSS variables, the font, the locale, the border. */
export function applyOptions(options: PageOptions): void {
  const root = document.documentElement;
  root.dataset.theme = options.theme;
  root.dataset.bordered = String(options.bordered);
  if (options.locale) root.lang = options.locale;
  if (options.font) document.body.style.fontFamily = `${JSON.stringify(options.font)}, system-ui, sans-serif`;
}
