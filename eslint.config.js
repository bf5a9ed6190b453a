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
      // A `default` branch is a deliberate catch-all (an answer of a kind this runner does not take).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Abort reasons are whatever the aborter gave (`signal.reason` is typed any): passed on as they are.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true }
      ],
      // Interface methods are written async on purpose: a synchronous throw becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // A `let` a closure reads before the one assignment (a server's port, known once listening).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
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
    files: ['main/preload/*.cts'],
    rules: {
      // A sandboxed preload is a CommonJS script: `import x = require()` is how it loads Electron.
      '@typescript-eslint/no-require-imports': 'off',
      // It rejects with plain error data, which crosses the context bridge whole (an Error would not).
      '@typescript-eslint/only-throw-error': 'off'
    }
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests may name Electron's types (the IPC binding is tested with fakes of them), never load it.
      'no-restricted-imports': ['error', { patterns: [{ ...ELECTRON, allowTypeImports: true }] }],
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
    // The unit tests run in one process, and so do the integration tests (see the README): a
    // file's top-level hooks would run around every other file's tests there.
    files: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // `before(…)`, `test.before(…)` and either awaited, at the top of a file.
          selector: [
            'Program > ExpressionStatement > CallExpression[callee.name=/^(before|after|beforeEach|afterEach)$/]',
            'Program > ExpressionStatement > CallExpression[callee.property.name=/^(before|after|beforeEach|afterEach)$/]',
            'Program > ExpressionStatement > AwaitExpression > CallExpression[callee.name=/^(before|after|beforeEach|afterEach)$/]',
            'Program > ExpressionStatement > AwaitExpression > CallExpression[callee.property.name=/^(before|after|beforeEach|afterEach)$/]'
          ].join(', '),
          message: 'Put hooks inside a describe: this file shares its process with the others.'
        }
      ]
    }
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked
  }
);
