import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from './util';

/**
 * The layers of lib/, bottom first. A file may import from its own layer and the ones below, never
 * from above: core (with release, the release and rollout rules its constructs use, and status, the
 * model of what HyperShift's status means) is the bottom and knows no platform, delivery engine or fleet; the domain folders build on it; gitops delivers what
 * they make; the fleet composes them; output reads an output directory for plan and the app; plan
 * says what a change does; the app drives it all.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core', 'release', 'status', 'platform', 'secrets', 'validation'],
  ['baremetal', 'ingress', 'management', 'backup', 'aws', 'config'],
  ['gitops'],
  ['fleet'],
  ['output'],
  ['plan'],
  ['app'],
];
const LIB = path.join(ROOT, 'lib');

interface Import {
  readonly from: string;
  readonly to: string;
  /** `import type`: erased at run time. */
  readonly typeOnly: boolean;
}

/** Every relative import between files of lib/, read from the TypeScript sources. */
function libImports(): Import[] {
  const imports: Import[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        const text = fs.readFileSync(full, 'utf8');
        for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.{1,2}\/[^']+)';/gm)) {
          const target = path.resolve(path.dirname(full), match[2]);
          const file = fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts');
          if (file.startsWith(LIB + path.sep)) imports.push({ from: path.relative(LIB, full), to: path.relative(LIB, file), typeOnly: match[1] !== undefined });
        }
      }
    }
  };
  walk(LIB);
  return imports;
}

function layerOf(file: string): number {
  const folder = file.split(path.sep)[0];
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

describe('lib/ architecture', () => {
  const imports = libImports();

  test('reads the imports (the check below has something to check)', () => {
    expect(imports.length).toBeGreaterThan(200);
    expect(imports).toContainEqual({ from: path.join('app', 'hcp-app.ts'), to: path.join('core', 'problems.ts'), typeOnly: false });
  });

  test('every folder of lib/ has a layer', () => {
    const folders = fs
      .readdirSync(LIB, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((folder) => layerOf(folder) < 0)).toEqual([]);
  });

  test('no file imports from a layer above its own (core is the bottom layer)', () => {
    const upward = imports.filter((i) => !i.from.startsWith('index.ts') && layerOf(i.from) < layerOf(i.to)).map((i) => `${i.from} -> ${i.to}`);
    expect(upward).toEqual([]);
  });

  test('release/ is below the constructs that use it: it imports no file of core/ that imports release/', () => {
    const importsRelease = (file: string, seen = new Set<string>()): boolean => {
      if (seen.has(file)) return false;
      seen.add(file);
      return imports.filter((i) => i.from === file).some((i) => i.to.startsWith(`release${path.sep}`) || importsRelease(i.to, seen));
    };
    const upward = imports.filter((i) => i.from.startsWith(`release${path.sep}`) && i.to.startsWith(`core${path.sep}`) && importsRelease(i.to)).map((i) => `${i.from} -> ${i.to}`);
    expect(imports.some((i) => i.from.startsWith(`release${path.sep}`) && i.to.startsWith(`core${path.sep}`))).toBe(true);
    expect(upward).toEqual([]);
  });

  test('no import cycle at run time', () => {
    const graph = new Map<string, string[]>();
    for (const i of imports.filter((i) => !i.typeOnly)) graph.set(i.from, [...(graph.get(i.from) ?? []), i.to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
