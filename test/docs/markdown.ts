// What the documentation tests read from the markdown files: the files themselves (README.md and
// docs/**/*.md), their code blocks, their links and their headings' anchors as GitHub makes them.
import * as fs from 'fs';
import * as path from 'path';

/** A markdown file of the documentation, by its path from the repository root. */
export interface MarkdownFile {
  /** The path from the repository root, with forward slashes: `docs/delivery.md`. */
  readonly path: string;
  /** The file's text. */
  readonly text: string;
}

/** A fenced code block. */
export interface CodeBlock {
  /** The file it is in. */
  readonly file: string;
  /** The line (1-based) of the block's first line of code, after the opening fence. */
  readonly line: number;
  /** The fence's info string: `ts`, `ts fragment`, `sh`, ... */
  readonly info: string;
  /** The code, without the fences or the indentation of the fence. */
  readonly code: string;
}

/** A markdown link `[text](target)` outside code. */
export interface MarkdownLink {
  /** The file it is in. */
  readonly file: string;
  /** The line (1-based) it is on. */
  readonly line: number;
  /** The target as written: `docs/delivery.md#prune-protection-kind-by-kind`, `#release-waves`, `https://...`. */
  readonly target: string;
}

/** README.md and every markdown file under docs/, sorted. */
export function documentationFiles(root: string): MarkdownFile[] {
  const found = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return found.sort().map((file) => ({ path: file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
}

const FENCE = /^( *)(```+|~~~+)\s*(.*)$/;

/** The fenced code blocks of a file, in order. */
export function codeBlocks(file: MarkdownFile): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = file.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j].trim().startsWith(fence) && lines[j].trim().replace(/[`~]/g, '') === '')) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j++;
    }
    blocks.push({ file: file.path, line: i + 2, info: info.trim(), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** The lines of a file that are prose: fenced blocks blanked out, so that line numbers stay. */
function proseLines(file: MarkdownFile): string[] {
  const lines = file.text.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const open = FENCE.exec(line);
    if (fence === undefined && open) {
      fence = open[2];
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      return '';
    }
    return line;
  });
}

/** The inline links of a file, outside code blocks and code spans. */
export function links(file: MarkdownFile): MarkdownLink[] {
  const found: MarkdownLink[] = [];
  proseLines(file).forEach((line, index) => {
    const withoutCode = line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      found.push({ file: file.path, line: index + 1, target: match[1] });
    }
  });
  return found;
}

/**
 * The anchors of a file's headings, as GitHub makes them: the heading's text without markup, lower
 * case, every character but letters, digits, spaces, `-` and `_` removed, spaces turned into `-`; a
 * repeated anchor gets `-1`, `-2`, ...
 */
export function headingAnchors(file: MarkdownFile): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of proseLines(file)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*~]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  return anchors;
}
