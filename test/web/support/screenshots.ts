import * as fs from 'node:fs';
import * as path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export const SCREENSHOT_DIR = path.resolve(__dirname, '../__screenshots__');
const DIFF_DIR = path.join(SCREENSHOT_DIR, '__diff__');

export interface CompareOptions {
  /** pixelmatch's per-pixel color threshold (0..1); 0.2 ignores anti-aliasing differences. */
  threshold?: number;
  /** Share of pixels allowed to differ beyond the threshold. */
  maxDiffRatio?: number;
}

export interface CompareResult {
  /** 'created' when there was no baseline: it is written now (review and commit it). */
  status: 'created' | 'match' | 'differs';
  diffPixels: number;
  diffRatio: number;
  /** The last run's screenshot, the baseline, and the diff image when it differs. */
  actualPath: string;
  baselinePath: string;
  diffPath?: string;
}

/**
 * Compares a PNG screenshot with test/web/__screenshots__/<name>.png. A missing baseline is written (the test should
 * say so); a differing one keeps the baseline and writes <name>.actual.png and <name>.diff.png under __diff__/
 * (gitignored). UPDATE_SCREENSHOTS=1 overwrites baselines.
 */
export function compareScreenshot(name: string, png: Buffer, opts: CompareOptions = {}): CompareResult {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`bad screenshot name ${name}`);
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const baselinePath = path.join(SCREENSHOT_DIR, `${name}.png`);
  const actualPath = path.join(DIFF_DIR, `${name}.actual.png`);
  if (!fs.existsSync(baselinePath) || process.env.UPDATE_SCREENSHOTS === '1') {
    fs.writeFileSync(baselinePath, png);
    return { status: 'created', diffPixels: 0, diffRatio: 0, actualPath: baselinePath, baselinePath };
  }
  const actual = PNG.sync.read(png);
  const baseline = PNG.sync.read(fs.readFileSync(baselinePath));
  const write = (diff?: PNG) => {
    fs.mkdirSync(DIFF_DIR, { recursive: true });
    fs.writeFileSync(actualPath, png);
    if (!diff) return undefined;
    const diffPath = path.join(DIFF_DIR, `${name}.diff.png`);
    fs.writeFileSync(diffPath, PNG.sync.write(diff));
    return diffPath;
  };
  if (actual.width !== baseline.width || actual.height !== baseline.height) {
    write();
    return { status: 'differs', diffPixels: actual.width * actual.height, diffRatio: 1, actualPath, baselinePath };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const diffPixels = pixelmatch(baseline.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: opts.threshold ?? 0.2,
    includeAA: false,
  });
  const diffRatio = diffPixels / (actual.width * actual.height);
  if (diffRatio <= (opts.maxDiffRatio ?? 0.002)) {
    fs.rmSync(actualPath, { force: true });
    fs.rmSync(path.join(DIFF_DIR, `${name}.diff.png`), { force: true });
    return { status: 'match', diffPixels, diffRatio, actualPath: baselinePath, baselinePath };
  }
  return { status: 'differs', diffPixels, diffRatio, actualPath, baselinePath, diffPath: write(diff) };
}

/** Jest assertion: the screenshot matches its baseline (or the baseline is created now, said on the console). */
export function expectScreenshot(name: string, png: Buffer, opts: CompareOptions = {}): CompareResult {
  const r = compareScreenshot(name, png, opts);
  if (r.status === 'created')
    console.warn(`screenshot baseline written: ${path.relative(process.cwd(), r.baselinePath)} (review and commit it)`);
  if (r.status === 'differs') {
    throw new Error(
      `screenshot ${name} differs from its baseline: ${r.diffPixels} pixels (${(r.diffRatio * 100).toFixed(2)}%);` +
        ` see ${r.diffPath ?? r.actualPath}`,
    );
  }
  return r;
}
