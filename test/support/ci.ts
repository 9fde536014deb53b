/** Whether this run is CI's: there a missing server or browser fails the tests that need it instead of skipping them. */
export const inCI = Boolean(process.env.CI) && process.env.CI !== 'false';
