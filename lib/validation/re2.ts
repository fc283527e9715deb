/**
 * Kubernetes evaluates OpenAPI `pattern`s and CEL `matches()` with Go's RE2; JavaScript's RegExp
 * reads a few RE2 spellings differently. This translates the ones the shipped CRDs use, so a
 * pattern means here what it means in the API server:
 * - `]` first in a class (`[]a]`, `[^]a]`) is a literal in RE2; in JavaScript `[^]` is "any character".
 * - inline flags `(?i)`, `(?s)`, `(?m)` at the start of a pattern or group become RegExp flags.
 * - `\z`, `\A`, `(?P<name>`, `[[:alpha:]]` and `\pL`-style classes.
 */
const cache = new Map<string, RegExp>();

export function re2(pattern: string): RegExp {
  let compiled = cache.get(pattern);
  if (!compiled) {
    compiled = translate(pattern);
    cache.set(pattern, compiled);
  }
  return compiled;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9', graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-/:-@[-`{-~', space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

function translate(pattern: string): RegExp {
  let flags = '';
  let out = '';
  let unicode = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'z') { out += '$'; i++; continue; }
      if (next === 'A') { out += '^'; i++; continue; }
      if ((next === 'p' || next === 'P') && pattern[i + 2] !== '{') {
        out += `\\${next}{${pattern[i + 2]}}`; unicode = true; i += 2; continue;
      }
      if (next === 'p' || next === 'P') unicode = true;
      out += c + (next ?? ''); i++;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const inline = /^\(\?([imsU]+)\)/.exec(pattern.slice(i));
      if (inline) {
        for (const f of inline[1]) if (f !== 'U' && !flags.includes(f)) flags += f;
        i += inline[0].length - 1;
        continue;
      }
      if (pattern.startsWith('(?P<', i)) { out += '(?<'; i += 3; continue; }
    }
    if (c === '[') {
      const end = classEnd(pattern, i);
      out += translateClass(pattern.slice(i, end + 1));
      if (/\\[pP]/.test(pattern.slice(i, end + 1))) unicode = true;
      i = end;
      continue;
    }
    out += c;
  }
  if (unicode) flags += 'u';
  return new RegExp(out, flags);
}

/** Index of the `]` that closes the class opening at `start`, with RE2's leading-`]` rule. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') { i++; continue; }
    if (pattern.startsWith('[:', i)) { const close = pattern.indexOf(':]', i); if (close > 0) { i = close + 1; continue; } }
    if (pattern[i] === ']') return i;
  }
  throw new SyntaxError(`missing closing ] in pattern ${JSON.stringify(pattern)}`);
}

function translateClass(cls: string): string {
  let body = cls.slice(1, -1);
  let negate = '';
  if (body.startsWith('^')) { negate = '^'; body = body.slice(1); }
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      const next = body[i + 1];
      if ((next === 'p' || next === 'P') && body[i + 2] !== '{') { out += `\\${next}{${body[i + 2]}}`; i += 2; continue; }
      out += c + next; i++;
      continue;
    }
    if (body.startsWith('[:', i)) {
      const close = body.indexOf(':]', i);
      const name = body.slice(i + 2, close);
      if (POSIX_CLASSES[name]) { out += POSIX_CLASSES[name]; i = close + 1; continue; }
    }
    // Characters that are literal in an RE2 class but special (or invalid unescaped) in a JavaScript one.
    if (c === ']' || c === '[' || c === '/') { out += '\\' + c; continue; }
    out += c;
  }
  return `[${negate}${out}]`;
}
