// jest globalSetup of the run (see run-tmpdir.ts).
export { setup as default } from './run-tmpdir';
