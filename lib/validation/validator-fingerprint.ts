import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

// The packages whose behaviour is part of a verdict: CEL evaluation, RE2 patterns, IP addresses and
// CIDRs (CEL's ip() and cidr(), formats), YAML of CRD files.
const RULE_PACKAGES = ['@marcbachmann/cel-js', 're2js', 'ip-address', 'js-yaml'];

let codeFingerprint: string | undefined;

/**
 * The digest of what an ObjectValidator's verdicts depend on besides its schemas: hcp-cdk's own code
 * (every file of the folder it runs from, `build/lib`, or `lib` under ts-node; the bundle, in an app
 * bundled into one file), the versions of the packages that evaluate rules and patterns, and Node's
 * version. Read once per process.
 */
export function validatorCodeFingerprint(): string {
  if (codeFingerprint !== undefined) return codeFingerprint;
  const hash = createHash('sha1').update(codeDigest(__filename));
  for (const name of RULE_PACKAGES) hash.update(`\0${name}@${packageVersion(name)}`);
  // JavaScript itself: regular expressions and Unicode tables come with the Node version.
  hash.update(`\0node@${process.version}`);
  codeFingerprint = hash.digest('hex');
  return codeFingerprint;
}

/**
 * The digest of the code `moduleFile` (this module) belongs to. It is normally
 * `<library>/validation/validator-fingerprint.{js,ts}`: every file of the library, the folder's
 * parent, with that extension. In an app bundled into one file, that file is all the code there is.
 */
export function codeDigest(moduleFile: string): string {
  const folder = path.dirname(moduleFile);
  if (path.basename(folder) === 'validation') return folderDigest(path.dirname(folder), path.extname(moduleFile));
  return createHash('sha1').update(fs.readFileSync(moduleFile)).digest('hex');
}

/** The digest of every file under `folder` whose name ends in `extension`: their paths and bytes, in a fixed order. */
export function folderDigest(folder: string, extension: string): string {
  const hash = createHash('sha1');
  const visit = (at: string): void => {
    const entries = fs.readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name.endsWith(extension))
        hash
          .update(`${path.relative(folder, full)}\0`)
          .update(fs.readFileSync(full))
          .update('\0');
    }
  };
  visit(folder);
  return hash.digest('hex');
}

/** The version in the package.json of the package `name` resolves to (its exports may not include package.json). */
function packageVersion(name: string): string {
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    return 'bundled'; // Not resolvable from here: bundled into the code digested above.
  }
  for (let dir = path.dirname(entry); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (manifest.name === name) return String(manifest.version);
    } catch {
      // No package.json at this level: keep walking up.
    }
  }
  return 'unknown';
}
