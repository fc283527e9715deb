// Where the examples' data files are, both when an example runs compiled (build/examples/...) and
// under ts-node (examples/...): from the repository root, found as the folder of package.json above.
import * as fs from 'fs';
import * as path from 'path';

/** A path under examples/, e.g. `exampleFile('fleet', 'fleet.yaml')`. */
export function exampleFile(...parts: string[]): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    if (path.dirname(dir) === dir) throw new Error(`no package.json in ${__dirname} or any folder above it`);
    dir = path.dirname(dir);
  }
  return path.join(dir, 'examples', ...parts);
}
