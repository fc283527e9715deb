import { re2, re2Find, re2FindAll } from '../../lib/validation/re2';

// Every expectation here is what Go's regexp (the API server's) answers for the same pattern and text.
describe('re2', () => {
  test.each([
    ['^a.c$', 'a\rc', true],
    ['^\\s$', '\v', false],
    ['^\\s$', '\u00a0', false],
    ['^\\S+$', 'a\u00a0b', true],
    ['^.{3}$', '😀😀😀', true],
    ['^a(?i)bc$', 'aBC', true],
    ['^a(?i)bc$', 'ABC', false],
    ['^a(?i:b)c$', 'aBc', true],
    ['^a(?i:b)c$', 'aBC', false],
    ['^(?i)k$', '\u212a', true],
    ['^\\Qa.b\\E$', 'a.b', true],
    ['^\\Qa.b\\E$', 'axb', false],
    ['^\\x{1F600}$', '😀', true],
    ['^\\p{Greek}+$', 'αβγ', true],
    ['^[[:^alpha:]]+$', '123', true],
    ['^abc\\z', 'abc\n', false],
    ['^abc$', 'abc\n', false],
    ['^[^]a]+$', 'x]', false],
    ['^[^]a]+$', 'xy', true],
    ['^arn:(aws|aws-cn|aws-us-gov):iam::[0-9]{12}:role/.+$', 'arn:aws:iam::123456789012:role/a\rb', true],
  ])('%j matching %j is %s, as in Go', (pattern, text, matches) => {
    expect(re2(pattern).test(text)).toBe(matches);
  });

  test.each([
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(?!a)', 'invalid or unsupported Perl syntax: `(?!`'],
    // Go 1.22+ reads `(?<` as a named group, hence its message (older Go: unsupported Perl syntax).
    ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
    ['a*+', 'invalid nested repetition operator: `*+`'],
    ['a++', 'invalid nested repetition operator: `++`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
  ])('fails when the pattern is %j, which RE2 rejects', (pattern, reason) => {
    expect(() => re2(pattern)).toThrow(`error parsing regexp: ${reason}`);
  });

  test('compiles a pattern once', () => {
    expect(re2('^[a-z]+$')).toBe(re2('^[a-z]+$'));
  });
});

describe('re2Find and re2FindAll', () => {
  test('find gives the leftmost match, or an empty string', () => {
    expect(re2Find('#(.+)$', 'abc#frag')).toBe('#frag');
    expect(re2Find('[0-9]+', 'abc')).toBe('');
  });

  test.each([
    ['a*', 'baaac', ['', 'aaa', '']],
    ['x*', 'xxaxx', ['xx', 'xx']],
    ['[0-9]+', 'a1b22c333', ['1', '22', '333']],
    ['.', 'a😀', ['a', '😀']],
    ['', '😀', ['', '']],
  ])('findAll %j in %j drops empty matches next to a match, by code point, as Go does', (pattern, text, matches) => {
    expect(re2FindAll(pattern, text)).toEqual(matches);
  });

  test('findAll stops at the limit', () => {
    expect(re2FindAll('[0-9]+', 'a1b22c333', 2)).toEqual(['1', '22']);
    expect(re2FindAll('a*', 'baaac', 2)).toEqual(['', 'aaa']);
    expect(re2FindAll('[0-9]+', 'a1b22c333', 0)).toEqual([]);
  });
});
