import type { Locator } from 'playwright-core';
import { until } from '../../support/until';

/**
 * The box of `l` once it is the same on three looks 100 ms apart. A chart can be drawn before what sits above it has
 * loaded (a lazy editor, its metadata) and then move down: a click aimed at a box read too early lands elsewhere.
 */
export async function settledBox(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const seen: string[] = [];
  await until(async () => {
    seen.push(JSON.stringify(await l.boundingBox()));
    await new Promise((r) => setTimeout(r, 100));
    const last = seen[seen.length - 1];
    return seen.length >= 3 && last !== 'null' && seen.slice(-3).every((b) => b === last);
  });
  return (await l.boundingBox())!;
}
