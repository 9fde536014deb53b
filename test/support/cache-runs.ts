import { until } from './until';

/** A run's answer: `cached: true` when the result cache answered it. */
export interface RunAnswer {
  cached?: boolean;
  data: { rows: unknown[][] };
}

/**
 * Runs `run` until the result cache answers it (results are stored in the background after the first run) and gives
 * that cached answer. Caching must be on with `query-caching-min-ttl` 0, or nothing is ever stored.
 */
export async function cachedAnswer(run: () => Promise<RunAnswer>): Promise<RunAnswer> {
  let answer = await run();
  await until(async () => {
    answer = await run();
    return answer.cached === true;
  });
  return answer;
}
