import { createTheme, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core';

/** Lato ships with the app (@fontsource/lato); the system fonts stand in until it has loaded. */
const FONT = 'Lato, "Helvetica Neue", Helvetica, Arial, sans-serif';

/**
 * Shade 8 of the primary color: white text on Mantine's default shade 6 has a contrast of 3.6:1, under the 4.5:1
 * that WCAG AA (and the axe scan of the browser tests) asks of button labels.
 */
export const theme = createTheme({
  fontFamily: FONT,
  headings: { fontFamily: FONT, fontWeight: '900' },
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  respectReducedMotion: true,
  // Plain objects, not `Menu.extend(...)`: importing the components here would put them in every page's chunk.
  components: {
    // A link inside text must not be told apart by its color alone (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
    // Without the focus placeholder (a div with a tabindex inside role=menu, which ARIA does not allow) the first item
    // takes the focus when a menu opens from the keyboard.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Dialogs and toasts: their close buttons need a name; a toast's description under a title is gray 6 by default (3.3:1).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      styles: { description: { color: 'var(--mantine-color-text)' } },
    },
  },
});

/**
 * Text colors that reach WCAG AA's 4.5:1 (Mantine's defaults do not): dimmed text gray 7 on white (gray 6 is 3.3:1);
 * error text red 9 on white (red 6 is 3.3:1); on the dark background dimmed dark 1 (dark 2 is 4.1:1) and error red 4
 * (red 8 is 3.9:1).
 */
export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Text of the `light` variant (alerts, light buttons) on its tinted background: shade 6 is under 4.5:1, 9 is over.
    ...Object.fromEntries(
      ['blue', 'red', 'green', 'yellow', 'orange'].map((c) => [`--mantine-color-${c}-light-color`, `var(--mantine-color-${c}-9)`]),
    ),
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)', '--mantine-color-error': 'var(--mantine-color-red-4)' },
});

/** The theme a person chose (light, dark or the system's), remembered in this browser. */
export const COLOR_SCHEME_KEY = 'analytics-color-scheme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });
