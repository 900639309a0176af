import tseslint from 'typescript-eslint';

/** `+=`, `-=`, `*=`, `/=`, `%=`, `**=`: assignments that read their target first. */
const ARITHMETIC_ASSIGNMENT = 'AssignmentExpression[operator=/^(\\+|-|\\*|\\/|%|\\*\\*)=$/]';

export default tseslint.config(
  { ignores: ['node_modules/**', '.quarry/**', 'examples/docs/**', 'dist/**', 'apps/web/dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          // `total += await f()` reads `total` before the await: lanes running side by side each
          // add to the value they read, and all but one addition is lost.
          selector: `${ARITHMETIC_ASSIGNMENT} > AwaitExpression.right, ${ARITHMETIC_ASSIGNMENT} > .right AwaitExpression`,
          message: 'A compound assignment of an await reads its target before awaiting (concurrent updates are lost): await into a const, then assign.',
        },
      ],
    },
  },
  {
    // The runtime stays in named parts (docs/architecture.md §1): no phase hides inside a long function.
    files: ['workers/runtime/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
);
