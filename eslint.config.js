// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The house's layering rule (VS Code's `code-layering`) as `no-restricted-imports`:
 * Electron appears only under main/; app/ (the core) never imports Electron, main/ or renderer/;
 * renderer/ reaches app/ only for the host API contract, and never Electron or Node's modules.
 */
const ELECTRON = {
  group: ['electron', 'electron/*', 'electron-store', '@electron/*', '@electron-forge/*'],
  message: 'Electron appears only under main/ (the layering rule).'
};
const UPWARD_FROM_APP = {
  group: ['**/main/*', '**/renderer/*', '../main', '../renderer'],
  message: 'app/ is the core: it never imports the Electron shell or the UI.'
};
const APP_FROM_RENDERER = {
  group: ['**/app/*', '!**/app/contract', '!**/app/contract/*'],
  message: 'renderer/ reaches app/ only through the host API contract (app/contract).'
};
const NODE_FROM_RENDERER = {
  group: ['node:*'],
  message: 'renderer/ runs in the browser: no Node modules.'
};

export default tseslint.config(
  {
    ignores: ['node_modules/', 'build/', 'out/', 'dist/', '.tmp/', '**/*.cjs']
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'forge.config.ts'] },
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after'] }
          ]
        }
      ]
    }
  },
  {
    files: ['app/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON, UPWARD_FROM_APP] }] }
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON, APP_FROM_RENDERER, NODE_FROM_RENDERER] }] }
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ELECTRON] }],
      // Tests read what peers sent as JSON and assert on its shape; typing every read first
      // would add noise, not safety. Handlers written async to match a signature need no await.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off'
    }
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked
  }
);
