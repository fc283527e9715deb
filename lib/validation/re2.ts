import { RE2JS } from 're2js';

/**
 * Kubernetes checks OpenAPI `pattern`s and runs CEL `matches()`, `find()` and `findAll()` with Go's
 * regexp package: RE2 syntax, linear time. re2js is a port of it, so a pattern means here what it
 * means in the API server, down to what JavaScript's RegExp reads differently (`.` and `\s` on
 * `\r` or `\v`, code points against UTF-16 units, `(?i)` inside a pattern, `\z`, `[^]a]`) and what
 * RE2 refuses (backreferences, lookaround, possessive quantifiers), which throws here as well.
 */
const cache = new Map<string, RE2JS>();

/** The compiled pattern; `re2(p).test(s)` is Go's `MatchString`. Throws when RE2 rejects the pattern. */
export function re2(pattern: string): RE2JS {
  let compiled = cache.get(pattern);
  if (!compiled) {
    compiled = RE2JS.compile(pattern);
    cache.set(pattern, compiled);
  }
  return compiled;
}

/** The leftmost match, or '' when there is none: Go's `FindString`, CEL's `find`. */
export function re2Find(pattern: string, s: string): string {
  return re2(pattern).exec(s)?.[0] ?? '';
}

/**
 * Successive matches, at most `limit` of them when it is not negative: Go's `FindAllString`, CEL's
 * `findAll`. Go drops an empty match that abuts the previous match (JavaScript's matchAll keeps it).
 */
export function re2FindAll(pattern: string, s: string, limit = -1): string[] {
  const matcher = re2(pattern).matcher(s);
  const found: string[] = [];
  let at = 0;
  let previousEnd = -1;
  while (at <= s.length && (limit < 0 || found.length < limit) && matcher.find(at)) {
    const start = matcher.start();
    const end = matcher.end();
    if (end === start) {
      if (start !== previousEnd) found.push('');
      at = end + ((s.codePointAt(end) ?? 0) > 0xffff ? 2 : 1);
    } else {
      found.push(s.slice(start, end));
      at = end;
    }
    previousEnd = end;
  }
  return found;
}
