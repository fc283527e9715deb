import * as fs from 'fs';
import * as path from 'path';

let found: string | undefined;

/**
 * The folder of hcp-cdk's own package.json: the repository, or node_modules/hcp-cdk when installed.
 * Found by walking up rather than by a fixed number of `..`, because this file runs from build/lib/core
 * when compiled and from lib/core under ts-node, and data files (imports/schemas) sit at the root in both.
 */
export function packageRoot(): string {
  if (found !== undefined) return found;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return (found = dir);
    if (path.dirname(dir) === dir) throw new Error(`hcp-cdk cannot find its package.json in ${__dirname} or any folder above it`);
  }
}
