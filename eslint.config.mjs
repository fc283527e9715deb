// @ts-check
// `npm run lint`: eslint with typescript-eslint's type-aware rules over every TypeScript file tsc compiles
// (tsconfig.json) except imports/, which `npm run import` generates. npm test runs it with --max-warnings 0.
// No --cache: a type-aware finding in one file can change when another file changes, and eslint's cache
// re-lints only the files that changed.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

// Node's CommonJS globals, for the few plain-JavaScript configuration files.
const COMMONJS_GLOBALS = { require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly', __filename: 'readonly', process: 'readonly', console: 'readonly' };

export default tseslint.config(
  { ignores: ['imports/', 'build/', 'dist/', 'cdk.out/', 'coverage/', 'node_modules/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [eslint.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // TypeScript's convention, which tsc's noUnusedLocals / noUnusedParameters follow too: a leading underscore
      // marks a binding unused on purpose (a parameter an interface requires, a field left out of a rest spread).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `import x = require('m')` is TypeScript's typed form for the module object itself, which a test replaces a
      // function of (jest.spyOn cannot change an ES import's bindings); untyped require() calls stay refused.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      eqeqeq: ['error', 'smart'],
      'no-new-wrappers': 'error',
    },
  },
  {
    // Where Kubernetes objects are handled as plain JSON on purpose, typed `any`: the validator (CRD schemas and
    // any document), the deliveries, plan and status (every kind of synthesized or live object), core, release and config (the
    // rendered objects they merge and compare), and the tests, scripts and benchmarks that read objects back
    // field by field. There the validator checks their shape at run time against the CRD schemas, not
    // TypeScript; no-explicit-any and the no-unsafe-* family flag every such read (about 4,600 findings, none
    // of another kind). Typing them (a JSON value type with narrowing readers) is a change to those layers, not
    // a lint fix. Everywhere else (the constructs of lib/aws, baremetal, backup, fleet, ingress, management,
    // platform and secrets, bin/ and examples/) the rules are on.
    files: ['lib/validation/**', 'lib/gitops/**', 'lib/plan/**', 'lib/status/**', 'lib/core/**', 'lib/release/**', 'lib/output/**', 'lib/config/**', 'lib/app/**', 'test/**', 'scripts/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [eslint.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: COMMONJS_GLOBALS },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
);
