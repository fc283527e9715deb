// jest globalTeardown of the run (see run-tmpdir.ts).
export { teardown as default } from './run-tmpdir';
