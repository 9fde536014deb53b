/**
 * Polls until `check` holds; throws after `ms`. The default is generous: a condition that holds returns at once,
 * and only a test that is failing anyway waits it out, so a loaded machine never fails a test that is right.
 */
export async function until(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}
