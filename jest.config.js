// Three projects over the compiled tests in build/test. `npm test` (and CI) runs all; `npm run test:unit`
// runs only `unit`, the inner loop: every suite that works in-process, without the suites that start
// the cdk8s and hcp-cdk CLIs, ts-node or npm (the examples through cdk8s synth, npm pack and install),
// and without `server`, the suites that send objects to a real kube-apiserver, which its globalSetup
// starts once per run (test/server/global-setup.ts).
const INTEGRATION = [
  '<rootDir>/build/test/examples/',
  '<rootDir>/build/test/bin/',
  '<rootDir>/build/test/package/',
  '<rootDir>/build/test/app/cdk8s-cli-safety.test.js',
  '<rootDir>/build/test/app/secrets-report.test.js',
];
const SERVER = '<rootDir>/build/test/server/';

const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>/build/test'],
  testMatch: ['**/*.test.js'],
  snapshotResolver: '<rootDir>/test/snapshot-resolver.js',
  // @marcbachmann/cel-js is ES-module only: babel-jest turns it into CommonJS (node itself loads it with require(esm)).
  transform: {
    '/node_modules/@marcbachmann/cel-js/.+\\.js$': ['babel-jest', { plugins: ['@babel/plugin-transform-modules-commonjs'] }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'],
};

module.exports = {
  // One temporary directory for the whole run, removed at its end (test/run-tmpdir.ts).
  globalSetup: '<rootDir>/build/test/run-tmpdir-setup.js',
  globalTeardown: '<rootDir>/build/test/run-tmpdir-teardown.js',
  projects: [
    { ...common, displayName: 'unit', testPathIgnorePatterns: ['/node_modules/', ...INTEGRATION, SERVER] },
    { ...common, displayName: 'integration', testMatch: INTEGRATION.map((p) => (p.endsWith('/') ? `${p}**/*.test.js` : p)) },
    {
      ...common,
      displayName: 'server',
      testMatch: [`${SERVER}**/*.test.js`],
      globalSetup: `${SERVER}global-setup.js`,
      globalTeardown: `${SERVER}global-teardown.js`,
    },
  ],
};
