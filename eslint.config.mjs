import tseslint from 'typescript-eslint';
import jest from 'eslint-plugin-jest';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'jest.config.js', 'scripts/', 'test/support/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
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
    files: ['src/cli/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
