// ESLint over the project's JavaScript: the recommended rules, with the globals of where each
// folder's code runs. Formatting is Prettier's business (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/', 'node_modules/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      'no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  // The page, the element, the workers: a browser (window or worker).
  {
    files: ['web/**', 'wasm/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  // Node: the build scripts, the package's command, the tests and their drivers.
  {
    files: ['scripts/**', 'package/**', 'tests/**', 'wasm/**'],
    languageOptions: { globals: globals.node },
  },
  // Tests (and the page harness) evaluate functions inside pages and workers too (page.evaluate),
  // where their globals hold.
  {
    files: ['tests/**', 'scripts/page-perf.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
];
