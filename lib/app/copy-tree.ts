import * as fs from 'fs';
import * as path from 'path';

/**
 * Copies every file under `from` to the same path under `to`, creating `to`. With `link`, files
 * become hard links where the filesystem allows (no second copy of the bytes), copies elsewhere.
 */
export function copyTree(from: string, to: string, options: { readonly link?: boolean } = {}): void {
  let link = options.link ?? false;
  const walk = (source: string, target: string) => {
    fs.mkdirSync(target, { recursive: true });
    for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
      const sourcePath = path.join(source, entry.name);
      const targetPath = path.join(target, entry.name);
      if (entry.isDirectory()) {
        walk(sourcePath, targetPath);
      } else if (entry.isFile()) {
        if (link) {
          try {
            fs.linkSync(sourcePath, targetPath);
            continue;
          } catch {
            link = false; // Another device, or a filesystem without hard links: copy from here on.
          }
        }
        fs.copyFileSync(sourcePath, targetPath);
      }
    }
  };
  walk(from, to);
}
