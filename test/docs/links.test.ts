// Every link of README.md and the guides resolves: a relative path names a file or folder of the
// repository, and an anchor names a heading of its target (GitHub's anchors), so that moving or
// renaming a section cannot leave a dead link behind.
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../util';
import { documentationFiles, headingAnchors, links, MarkdownFile } from './markdown';

const files = documentationFiles(ROOT);
const byPath = new Map(files.map((file) => [file.path, file]));
const anchorsOf = new Map<string, Set<string>>();

function anchors(file: MarkdownFile): Set<string> {
  if (!anchorsOf.has(file.path)) anchorsOf.set(file.path, headingAnchors(file));
  return anchorsOf.get(file.path)!;
}

/** Why a link does not resolve, or undefined when it does. */
function brokenBecause(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: ... are not checked here
  const [pathPart, anchor] = target.split('#', 2);
  const resolved = pathPart === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(pathPart)));
  if (resolved.startsWith('..')) return `${resolved} is outside the repository`;
  if (!fs.existsSync(path.join(ROOT, resolved))) return `${resolved} does not exist`;
  if (anchor === undefined) return undefined;
  const targetFile = byPath.get(resolved) ?? (resolved.endsWith('.md') ? { path: resolved, text: fs.readFileSync(path.join(ROOT, resolved), 'utf8') } : undefined);
  if (!targetFile) return `#${anchor}: ${resolved} is not markdown, so it has no anchors`;
  return anchors(targetFile).has(anchor) ? undefined : `${resolved} has no heading with anchor #${anchor}`;
}

test('README.md and the guides are found', () => {
  expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/delivery.md', 'docs/validation.md']));
});

test('every link resolves: files exist and anchors name headings of their target', () => {
  const all = files.flatMap(links);
  const broken = all.flatMap((link) => {
    const reason = brokenBecause(link.file, link.target);
    return reason === undefined ? [] : [`${link.file}:${link.line}: (${link.target}): ${reason}`];
  });
  expect(broken).toEqual([]);
  expect(all.length).toBeGreaterThan(40);
});

test('the guides index lists every guide, and README links to the index', () => {
  const guides = files.map((f) => f.path).filter((p) => p.startsWith('docs/') && p !== 'docs/README.md');
  const listed = new Set(links(byPath.get('docs/README.md')!).map((l) => `docs/${l.target.split('#')[0]}`));
  expect(guides.filter((guide) => !listed.has(guide))).toEqual([]);
  expect(links(byPath.get('README.md')!).map((l) => l.target)).toContain('docs/README.md');
});

test('every guide links back to README.md', () => {
  const guides = files.filter((f) => f.path.startsWith('docs/') && f.path !== 'docs/README.md');
  expect(guides.filter((guide) => !links(guide).some((l) => l.target === '../README.md')).map((g) => g.path)).toEqual([]);
});

describe("the anchors are GitHub's", () => {
  const anchorsFor = (text: string): string[] => [...headingAnchors({ path: 'x.md', text })];

  test('lower case, punctuation dropped, spaces as hyphens, code spans and links as their text', () => {
    expect(anchorsFor('## Prune protection, kind by kind')).toEqual(['prune-protection-kind-by-kind']);
    expect(anchorsFor('# Changes to running clusters: `hcp-cdk plan` and upgrades')).toEqual(['changes-to-running-clusters-hcp-cdk-plan-and-upgrades']);
    expect(anchorsFor('# Backup and restore (docs 7.4.2, 7.6)')).toEqual(['backup-and-restore-docs-742-76']);
    expect(anchorsFor('## See [the guide](x.md) and snake_case')).toEqual(['see-the-guide-and-snake_case']);
  });

  test('a repeated heading gets a number; headings inside code blocks are no headings', () => {
    expect(anchorsFor('## Argo CD\n\n```sh\n# Argo CD\n```\n\n## Argo CD\n')).toEqual(['argo-cd', 'argo-cd-1']);
  });

  test('a broken anchor or path is reported with its file and line', () => {
    expect(brokenBecause('docs/delivery.md', '#no-such-heading')).toBe('docs/delivery.md has no heading with anchor #no-such-heading');
    expect(brokenBecause('docs/delivery.md', 'missing.md')).toBe('docs/missing.md does not exist');
    expect(brokenBecause('README.md', 'docs/delivery.md#prune-protection-kind-by-kind')).toBeUndefined();
  });
});
