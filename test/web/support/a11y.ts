import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle, injected into the page under test (the package is pinned in package.json). */
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Where the review screenshots go (gitignored): test/web/__output__/<name>-<light|dark>.png. Not compared to anything. */
export const OUTPUT_DIR = path.resolve(__dirname, '../__output__');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; html: string; why: string }>;
}

/** Runs axe-core on the page as it is now: the violations of impact serious or critical, summarised. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE_SOURCE });
  // Evaluated in the page (a string: the test code is compiled without the DOM's types).
  const run = `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => ({
      target: n.target, html: n.html.slice(0, 200), why: (n.failureSummary || '').slice(0, 300),
    })),
  })))`;
  const violations = (await page.evaluate(run)) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html} (${n.why})`).join(' | ')}`);
}

/** Mantine reads the color scheme from this attribute: setting it redraws the page in that theme at once. */
const setScheme = (page: Page, scheme: 'light' | 'dark') =>
  page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', ${JSON.stringify(scheme)})`);

/**
 * The review of a page as it is now, in the light and the dark theme: an axe-core scan that must find no serious
 * or critical violation, and a full-page screenshot for a person to look at (OUTPUT_DIR/<name>-<scheme>.png). The
 * page's own theme is restored afterwards. Call it once the page shows what it is for (wait on that first).
 */
export async function reviewPage(page: Page, name: string): Promise<void> {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`bad page name ${name}`);
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const before = (await page.evaluate(`document.documentElement.getAttribute('data-mantine-color-scheme')`)) as string | null;
  const found: Record<string, string[]> = {};
  // Colors that change with the theme ease in (Mantine's color transitions): on a loaded machine axe could read a
  // label halfway between its two themes. Without transitions the new colors hold from the next frame.
  const still = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      // Two frames: the new colors are computed and painted before axe reads them.
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      const violations = await seriousViolations(page);
      if (violations.length) found[scheme] = violations;
      await page.screenshot({ path: path.join(OUTPUT_DIR, `${name}-${scheme}.png`), fullPage: true });
    }
  } finally {
    if (before) await setScheme(page, before as 'light' | 'dark');
    await still.evaluate((node) => node.remove());
  }
  expect({ page: name, violations: found }).toEqual({ page: name, violations: {} });
}
