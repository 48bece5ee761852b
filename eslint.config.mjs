// Lint: floating promises are errors; only src/extension/ (and the editor test suites) may import 'vscode'.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'cli/dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-output/**', '**/*.mjs', '**/*.js'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: "Only src/extension/ may import 'vscode': keep the core, server, CLI and sandbox editor-free." }],
      }],
    },
  },
  {
    // The extension, its editor suites, and the minimal extension the activation bench compares against.
    files: ['src/extension/**/*.ts', 'test/editor/suite/**/*.ts', 'bench/activation/baseline.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
