// ESLint for the VS Code extension (vscode-extension/): typescript-eslint's strict,
// type-aware rules on the TypeScript sources, the recommended rules on the scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/', 'vscode-extension/dist/', 'vscode-extension/out-test/', 'vscode-extension/bin/', 'dist/'] },
  {
    files: ['vscode-extension/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['vscode-extension/src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { project: './vscode-extension/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // node:test's test() and describe() return promises the runner awaits.
    files: ['vscode-extension/src/test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
);
