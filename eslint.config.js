import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';

/**
 * The web app's layers (bulletproof-react): a feature never imports another feature, features and
 * shared code never import the app layer, and shared code (components/ui, lib) imports no feature.
 */
const WEB = 'apps/web/src';
const features = readdirSync(new URL(`./${WEB}/features`, import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Props that hold a text a person reads (a label, a title, a hint, ...), and literal texts with words in them. */
const TEXT_PROPS =
  '/^(label|title|aria-label|placeholder|hint|alt|what|unit|done|confirmLabel|buttonLabel|fallback|description)$/';
const LETTERS = '[value=/[A-Za-z]{2}/]';
const WORDS = `:matches(Literal${LETTERS}, TemplateLiteral:has(TemplateElement[value.raw=/[A-Za-z]{2}/]))`;

const webBoundaries = [
  ...features.map((f) => ({
    target: `./${WEB}/features/${f}`,
    from: `./${WEB}/features`,
    except: [`./${f}`],
    message: 'A feature does not import another feature: compose them in app/ (or move the shared part to lib/).',
  })),
  { target: `./${WEB}/features`, from: `./${WEB}/app`, message: 'Features do not import the app layer.' },
  {
    target: [`./${WEB}/lib`, `./${WEB}/components`],
    from: [`./${WEB}/features`, `./${WEB}/app`],
    message: 'Shared code (lib/, components/) imports no feature and no app code.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/data/**',
      'apps/server/src/db/migrations/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
    },
  },
  {
    files: [`${WEB}/**/*.{ts,tsx}`],
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    // Import cycles are found by scripts/import-cycles.mjs (import/no-cycle read all of node_modules: minutes).
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import/no-restricted-paths': ['error', { zones: webBoundaries }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The web's first load takes the small text module; the full catalogue is the server's (decision 0022).
    files: [`${WEB}/**/*.{ts,tsx}`, 'packages/shared/src/schemas/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Use 'zod/mini' (decision 0022)." }],
          patterns: [
            {
              group: ['@harvest/shared/messages', '**/messages.ts'],
              message: 'Import TEXT from texts.ts (decision 0022).',
            },
          ],
        },
      ],
    },
  },
  {
    // Every text a person reads goes through t() (docs/decisions/0075): a literal rendered by a component, or
    // written into a text prop, would stay English in every language.
    files: [`${WEB}/**/*.tsx`],
    ignores: [`${WEB}/**/*.test.tsx`, `${WEB}/test/**`],
    plugins: { react },
    rules: {
      'react/jsx-no-literals': [
        'error',
        {
          noStrings: true,
          ignoreProps: true,
          // Names, units and marks that read the same in every language.
          allowedStrings: [
            'Harvest Farm',
            'USDC',
            'Polygon',
            '—',
            '...',
            '·',
            '/',
            '%',
            '+',
            '-',
            '×',
            ':',
            '(',
            ')',
            '*',
            '#',
            '@',
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...[
          `JSXAttribute[name.name=${TEXT_PROPS}] > Literal${LETTERS}`,
          `JSXAttribute[name.name=${TEXT_PROPS}] > JSXExpressionContainer > ${WORDS}`,
          `JSXAttribute[name.name=${TEXT_PROPS}] > JSXExpressionContainer > :matches(ConditionalExpression, LogicalExpression) > ${WORDS}`,
          `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > ${WORDS}`,
          `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > :matches(ConditionalExpression, LogicalExpression) > ${WORDS}`,
        ].map((selector) => ({ selector, message: 'A text a person reads is said with t() (docs/decisions/0075).' })),
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', 'e2e/**', '**/scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
