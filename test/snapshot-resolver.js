// Jest runs the compiled tests in build/test; keep their snapshots beside the sources in test/.
const path = require('path');

const root = path.resolve(__dirname, '..');
const built = path.join(root, 'build', 'test');
const source = path.join(root, 'test');

module.exports = {
  resolveSnapshotPath: (testPath, extension) => path.join(source, path.relative(built, path.dirname(testPath)), '__snapshots__', path.basename(testPath) + extension),
  resolveTestPath: (snapshotPath, extension) => path.join(built, path.relative(source, path.dirname(path.dirname(snapshotPath))), path.basename(snapshotPath, extension)),
  testPathForConsistencyCheck: path.join(built, 'example.test.js'),
};
