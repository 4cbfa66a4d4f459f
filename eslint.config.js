// Lint guards the architecture: the engine stays pure and deterministic, and imports flow one
// way (ui → worker → engine; cli → engine; protocol shared). See docs/ARCHITECTURE.md.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const engineImpurity = {
  'no-restricted-globals': [
    'error',
    ...['window', 'document', 'self', 'navigator', 'localStorage', 'fetch', 'XMLHttpRequest'].map(
      (name) => ({ name, message: 'The engine runs without a DOM: pass what it needs in.' }),
    ),
    ...['setTimeout', 'setInterval', 'requestAnimationFrame', 'queueMicrotask', 'performance'].map(
      (name) => ({ name, message: 'The engine has no timers: use the injected Clock.' }),
    ),
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Math', property: 'random', message: 'Use the injected seeded Rng.' },
    { object: 'Date', property: 'now', message: 'Use the injected Clock.' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: 'new Date() reads the wall clock: use the injected Clock.',
    },
  ],
};

/** The UI talks to the engine through the worker only (restated where a block overrides it). */
const UI_NEVER_IMPORTS_THE_ENGINE = {
  group: ['**/engine', '**/engine/**', '**/lessons/checks', '**/lessons/checks/**'],
  message: 'The UI never imports the engine: talk to the worker through protocol/.',
};

export default tseslint.config(
  {
    ignores: ['dist', 'dist-cli', 'node_modules', 'coverage', 'test-results', 'playwright-report'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name="only"]', message: 'No focused tests.' },
      ],
    },
  },
  {
    // The command's entry and loader are CommonJS (Node starts them without its ES module
    // loader): require() is how they import.
    files: ['bin/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: {
      ...engineImpurity,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'os'],
              message: 'The engine is host-neutral.',
            },
            {
              group: ['react', 'react-*', 'zustand*', '@xyflow/*', 'motion*', 'monaco-*'],
              message: 'No UI in the engine.',
            },
            {
              group: ['**/ui/**', '**/worker/**', '**/cli/**'],
              message: 'Imports flow ui → worker → engine.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/worker/**', '**/cli/**', 'react'],
              message: 'protocol/ holds types only.',
            },
          ],
        },
      ],
    },
  },
  {
    // How traces and the lab's notes are put into words: pure, shared by the web lab and the
    // CLI, over protocol/ types only.
    files: ['src/explain/**/*.ts'],
    rules: {
      ...engineImpurity,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine', '**/engine/**', '**/ui/**', '**/worker/**', '**/cli/**'],
              message: 'explain/ reads protocol/ types only: the UI and the CLI both use it.',
            },
            {
              group: ['react', 'react-*', 'node:*', 'i18next', 'react-i18next'],
              message: 'explain/ is pure text over protocol/ types.',
            },
          ],
        },
      ],
    },
  },
  {
    // Lessons are data: the UI imports them, so they import nothing that runs the lab.
    files: ['src/lessons/**/*.ts'],
    ignores: ['src/lessons/checks/**'],
    rules: {
      ...engineImpurity,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine', '**/engine/**', '**/lessons/checks', '**/lessons/checks/**'],
              message: 'Lesson content is data: checks live in src/lessons/checks.',
            },
            {
              group: ['**/ui/**', '**/worker/**', '**/cli/**', 'react', 'react-*', 'node:*'],
              message: 'Lesson content is data: no UI, worker, CLI or Node imports.',
            },
          ],
        },
      ],
    },
  },
  {
    // Checks run in the worker and in Node: pure like the engine, reading it through its index.
    files: ['src/lessons/checks/**/*.ts'],
    rules: {
      ...engineImpurity,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine/*/**', '**/engine/*', '!**/engine/index'],
              message: 'Checks read the engine through src/engine/index.ts only.',
            },
            {
              group: ['**/ui/**', '**/worker/**', '**/cli/**', 'react', 'react-*', 'node:*'],
              message: 'Checks run in the worker: no UI, CLI or Node imports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [UI_NEVER_IMPORTS_THE_ENGINE],
        },
      ],
    },
  },
  {
    // The app shell stays small (≤ 250 kB gzip, `npm run bench:ui`): outside the lessons panel,
    // itself loaded with React.lazy, the lessons' content is reached with import() only.
    files: ['src/ui/**/*.{ts,tsx}'],
    ignores: ['src/ui/lessons/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            UI_NEVER_IMPORTS_THE_ENGINE,
            {
              group: ['**/lessons/catalog', '**/lessons/[0-9]*/**', '**/lessons/messages'],
              message: 'Lessons load after the app shell: use import() (see app/use-lesson.ts).',
            },
          ],
        },
      ],
    },
  },
);
