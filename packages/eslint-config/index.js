import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** The shared flat config: type-aware typescript-eslint rules for every package. */
export const config = defineConfig(
  { ignores: ['dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.config.ts'] },
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_' },
      ],
      // Unpacked code: one statement a line, no ternary inside a ternary, no assignment returned.
      '@typescript-eslint/no-confusing-void-expression': 'error',
      'max-statements-per-line': ['error', { max: 1 }],
      'no-nested-ternary': 'error',
      'no-return-assign': ['error', 'always'],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
