/**
 * Jest runs CommonJS; Nest 12 ships ESM, so its files go through swc too.
 * Two projects: everything on the SQLite app DB, and the e2e tests again on Postgres (scripts/test.js decides
 * whether Postgres is reachable). Each test file makes its own fresh database, so files run in parallel.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
const base = {
  testEnvironment: 'node',
  rootDir: __dirname,
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|uid)/)'],
};
module.exports = {
  // Global, not per project: jest ignores testTimeout inside `projects`.
  testTimeout: 60000,
  projects: [
    {
      ...base,
      displayName: 'sqlite',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/sdk/src/**/*.spec.ts'],
      setupFiles: ['<rootDir>/test/support/env-sqlite.js'],
    },
    {
      ...base,
      displayName: 'postgres',
      testMatch: ['<rootDir>/test/e2e/**/*.spec.ts'],
      setupFiles: ['<rootDir>/test/support/env-postgres.js'],
    },
  ],
};
