import tseslint from 'typescript-eslint';
import jest from 'eslint-plugin-jest';

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'jest.config.js', 'scripts/', 'test/support/*.js', 'web/src/app/api/generated/'],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
      // Prettier wraps code at 140 but leaves long strings, templates and comments alone.
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-identical-title': 'error',
      'jest/valid-expect': 'error',
      'no-console': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The query engine is framework-free: Nest and the feature modules plug into it, never the other way round.
    files: ['src/query-engine/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@nestjs/*'], message: 'query-engine/ stays free of Nest; wire it in a module.' },
        { group: ['**/modules/**'], message: 'query-engine/ must not depend on feature modules.' },
      ] }],
    },
  },
  {
    // Infrastructure shared by every module depends on none of them (use an interface and a token instead).
    files: ['src/common/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/modules/**'], message: 'common/ must not depend on feature modules.' }] }],
    },
  },
  {
    // Entities and row types sit below every module (any module may import them) and import none, nor common: the
    // migrations and the app's infrastructure build on them, never the other way round.
    files: ['src/schema/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/modules/**'], message: 'schema/ must not depend on feature modules.' },
        { group: ['**/common/**', '**/migrations/**'], message: 'schema/ depends on TypeORM and query-engine types only.' },
      ] }],
    },
  },
  {
    // A landed migration never changes: it must not import code that does.
    files: ['src/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/modules/**', '**/common/**', '**/schema/**'], message: 'A migration imports only TypeORM and migrations/columns.' },
      ] }],
    },
  },
  // A module reaches another only through its public index (src/modules/<name>/index.ts): `../cards`, not
  // `../cards/cards.repository`. One block per folder depth, since the pattern is relative to the importing file.
  ...[1, 2, 3].map((depth) => ({
    files: [`src/modules/*/${'*/'.repeat(depth - 1)}*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{
        regex: `^${'\\.\\./'.repeat(depth)}[^./][^/]*/.`,
        message: "Import another module through its index (its public API): '../<module>', and export what you need there.",
      }] }],
    },
  })),
  {
    files: ['src/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{
        regex: '^\\./modules/[^/]+/.',
        message: "Import a module through its index (its public API): './modules/<module>'.",
      }] }],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
