import * as path from 'path';
import { dump, loadAll } from 'js-yaml';
import { parse } from 'yaml';
import { Fleet, HcpApp } from '../../lib';
import { YAML_DUMP_OPTIONS, yamlText } from '../../lib/core/yaml-text';
import { fleetInventory } from '../../bench/fleet-inventory';
import { ROOT } from '../util';

const jsYaml = (value: unknown) => dump(value, YAML_DUMP_OPTIONS);

/** The text, or the class and message of the error, so that a throw is compared too. */
function outcome(write: (value: unknown) => string, value: unknown): string {
  try {
    return write(value);
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

// ---- Random JSON values -----------------------------------------------------------------------

/** mulberry32: a small seeded generator, so that a failure comes back on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole strings that YAML 1.1 or js-yaml's schema reads as something other than a string, and near misses. */
const WORDS = [
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'on',
  'On',
  'ON',
  'off',
  'OFF',
  'y',
  'Y',
  'n',
  'N',
  'true',
  'True',
  'TRUE',
  'false',
  'FALSE',
  'fAlse',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  '<<',
  '<',
  '1e3',
  '1E3',
  '1e400',
  '-1e-3',
  '+1.5e+3',
  '0x1F',
  '0xg',
  '0x',
  '0o7',
  '0o8',
  '0b101',
  '0b',
  '0B1',
  '-0x1F',
  '+0o17',
  '.5',
  '+.5',
  '-.5',
  '.',
  '1.',
  '1_000',
  '1,000',
  '12:30:00',
  '-1:30',
  '1:30.5',
  '190:20:30',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 Z',
  '2001-1-1 1:00:00',
  '2001-12-14T21:59:43Z',
  '2002-12-14x',
  '.inf',
  '-.Inf',
  '+.INF',
  '.NaN',
  '-.nan',
  '.nAn',
  '0',
  '-0',
  '+0',
  '00',
  '012',
  '09',
  '_1',
  '__1',
  '_.5',
  '1__',
  '0b-1',
  '0b+1_0',
  '-0b-1',
  '1'.repeat(400),
  '0x' + 'f'.repeat(300),
  '0b' + '1'.repeat(1100),
  '3.14',
  '-',
  '?',
  ':',
  '#',
  '-1',
  '=',
  '==',
  '...',
  '---',
];
/** Characters and pairs with a meaning in YAML, the escapes of double quotes, and some unicode. */
const PIECES = [
  ': ',
  ' #',
  '- ',
  '? ',
  ':',
  '#',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r',
  '\r\n',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&',
  '*',
  '!',
  '|',
  '>',
  "'",
  '"',
  '%',
  '@',
  '`',
  '-',
  '?',
  '=',
  '\\',
  '~',
  '<<',
  '\x00',
  '\x07',
  '\x08',
  '\x0b',
  '\x0c',
  '\x1b',
  '\x1f',
  '\x7f',
  '\x80',
  '\x85',
  '\x9f',
  '\xa0',
  '\xa1',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\ue000',
  '\ud7ff',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '😀',
  '\u{10ffff}',
  'é',
  '中文',
  'a',
  'b',
  'key',
  'value',
  'apiVersion',
  '0',
  '9',
  '42',
  '.',
  '/',
  'x:y',
  'http://a.b',
  '"quoted"',
];

class RandomJson {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  private below(n: number): number {
    return Math.floor(this.random() * n);
  }

  private pick<T>(list: readonly T[]): T {
    return list[this.below(list.length)];
  }

  value(depth: number): unknown {
    const roll = this.random();
    if (depth < 5 && roll < 0.25) return this.array(depth + 1);
    if (depth < 5 && roll < 0.5) return this.object(depth + 1);
    if (roll < 0.8) return this.string();
    if (roll < 0.93) return this.number();
    return this.pick([true, false, null]);
  }

  private array(depth: number): unknown[] {
    return Array.from({ length: this.below(5) }, () => this.value(depth));
  }

  private object(depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    for (let n = this.below(5); n > 0; n--) object[this.random() < 0.003 ? 'k'.repeat(1020 + this.below(10)) : this.string()] = this.value(depth);
    return object;
  }

  string(): string {
    const roll = this.random();
    if (roll < 0.2) return this.pick(WORDS);
    if (roll < 0.25) return this.pick(['', ' ']) + this.pick(WORDS) + this.pick(['', ' ', '\n']);
    let text = '';
    for (let n = this.below(7); n > 0; n--) {
      const kind = this.random();
      if (kind < 0.6) text += this.pick(PIECES);
      else if (kind < 0.75) text += this.pick(WORDS);
      else if (kind < 0.9) text += String.fromCharCode(this.below(0x10000));
      else text += String.fromCodePoint(this.below(0x110000));
    }
    return text;
  }

  private number(): number {
    const roll = this.random();
    if (roll < 0.3) return this.below(2000) - 1000;
    if (roll < 0.5) return (this.random() - 0.5) * 10 ** (this.below(40) - 20);
    if (roll < 0.6) return (this.random() - 0.5) * 10 ** (this.below(640) - 320);
    return this.pick([0, -0, NaN, Infinity, -Infinity, 1e21, -1e21, 2 ** 53, 5e-7, 1e-7, 1.5e-7, 1e300, 5e-324, Number.MAX_VALUE, 0.1, -2.5, 1e20, 123456789012]);
  }
}

// ---- Shrinking a failure ----------------------------------------------------------------------

/** Smaller values than `value`: parts left out, a container replaced by a part, strings cut down. */
function* smaller(value: unknown): Generator<unknown> {
  if (typeof value === 'string') {
    if (value.length === 0) return;
    yield '';
    yield value.slice(0, value.length >> 1);
    yield value.slice(value.length >> 1);
    for (let i = 0; i < value.length; i++) yield value.slice(0, i) + value.slice(i + 1);
  } else if (Array.isArray(value)) {
    yield* value;
    for (let i = 0; i < value.length; i++) yield [...value.slice(0, i), ...value.slice(i + 1)];
    for (let i = 0; i < value.length; i++) for (const part of smaller(value[i])) yield value.map((item, j) => (j === i ? part : item));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    yield* entries.map(([, part]) => part);
    yield* entries.map(([key]) => key);
    for (let i = 0; i < entries.length; i++) yield Object.fromEntries(entries.filter((_, j) => j !== i));
    for (let i = 0; i < entries.length; i++) {
      for (const part of smaller(entries[i][1])) yield Object.fromEntries(entries.map(([k, v], j) => [k, j === i ? part : v]));
      for (const key of smaller(entries[i][0])) yield Object.fromEntries(entries.map(([k, v], j) => [j === i ? (key as string) : k, v]));
    }
  }
}

/** The failing value cut down, one smaller failing value at a time, until no smaller one fails. */
function shrink(value: unknown, fails: (v: unknown) => boolean): unknown {
  let current = value;
  for (let improved = true, rounds = 0; improved && rounds < 10_000; rounds++) {
    improved = false;
    for (const candidate of smaller(current)) {
      if (fails(candidate)) {
        current = candidate;
        improved = true;
        break;
      }
    }
  }
  return current;
}

const differs = (value: unknown) => outcome(yamlText, value) !== outcome(jsYaml, value);

function expectSameAsJsYaml(value: unknown): void {
  if (!differs(value)) return;
  const smallest = shrink(value, differs);
  throw new Error(`yamlText differs from js-yaml on ${JSON.stringify(smallest)}:\n  yamlText ${JSON.stringify(outcome(yamlText, smallest))}\n  js-yaml  ${JSON.stringify(outcome(jsYaml, smallest))}`);
}

// ---- Tests ------------------------------------------------------------------------------------

describe('yamlText writes what js-yaml dump writes', () => {
  test('on 120,000 random values (fixed seed)', () => {
    const random = new RandomJson(20240611);
    for (let i = 0; i < 120_000; i++) expectSameAsJsYaml(random.value(i % 4));
  });

  test('on random strings as keys, values and items at every depth, written again from the caches', () => {
    const random = new RandomJson(7);
    const strings = Array.from({ length: 3000 }, () => random.string());
    for (let round = 0; round < 2; round++) {
      for (const text of strings) {
        expectSameAsJsYaml(text);
        expectSameAsJsYaml({ [text]: text, nested: { [text]: [text, [text], { [text]: text }] } });
      }
    }
  });

  test('after the caches are emptied for holding too much', () => {
    const long = Array.from({ length: 6000 }, (_, i) => `${i}\n${'x'.repeat(1000)}\n `);
    for (const text of long) expectSameAsJsYaml({ [`key ${text.length}`]: [text] });
    for (const text of long.slice(0, 100)) expectSameAsJsYaml({ a: { b: text } });
  });

  test.each<[string, unknown]>([
    ['an empty object and array', { a: {}, b: [], c: [{}, []] }],
    ['arrays in arrays', [[1, [2, [3, []]]], [], [[{}]]]],
    ['objects in arrays in objects', { a: [{ b: [{ c: 1, d: [] }], e: 'f' }, { g: {} }] }],
    ['a top-level string, number, boolean and null', ['text', 1, true, null]],
    ['numbers', [0, -0, 1, -1, 1.5, -2.5, 0.1, NaN, Infinity, -Infinity, 1e21, -1e21, 1e-7, 5e-7, -5e-7, 1.5e-7, 2 ** 53, 1e300, 5e-324, Number.MAX_VALUE, 123e-20]],
    ['literal blocks and their chomping', { a: 'a\nb', b: 'a\n', c: 'a\n\n', d: '\n', e: '\n\n', f: 'a\n\n\nb\n\n', g: 'trailing \nspaces  ' }],
    ['literal blocks whose first line starts with a space', { a: ' a\nb', b: '\n a', c: '\n\n  a\n', d: '  \n' }],
    ['literal blocks at every depth', ['a\nb', ['a\nb', ['a\nb']], { k: { k: { k: ' a\nb\n' } } }]],
    ['a multi-line string as a key', { 'a\nb': 'a\nb' }],
    ['escapes', ['\t', 'a\tb', '\x00\x07\x08\x0b\x0c\x0d\x1b\x7f', '\x85', '\xa0', '\u2028', '\u2029', '\ufeff', '\ud800', 'a\udc00b', '\ufffe', '"\\', 'a\n\tb', 'a\r\nb']],
    ['unicode and emoji', ['é', '中文', '😀', 'a😀', '😀:', '\u{10ffff}', '\ue000']],
    [
      'words YAML 1.1 reads as other types',
      [
        'yes',
        'on',
        'Off',
        'y',
        'N',
        '~',
        'null',
        'true',
        'False',
        '1e3',
        '0x1F',
        '0o7',
        '0b1',
        '.5',
        '+.5',
        '1_000',
        '12:30:00',
        '2001-12-14',
        '2001-12-14 21:59:43.10 -5',
        '<<',
        '.inf',
        '-.Inf',
        '.NaN',
        '1e400',
        '9'.repeat(400),
      ],
    ],
    ['the same words as keys', Object.fromEntries(['yes', 'on', '~', 'null', '1e3', '0x1F', '12:30:00', '2001-12-14', '<<', ''].map((k) => [k, k]))],
    ['white space at either end', [' a', 'a ', ' ', '  a  ', '\ta', 'a\t']],
    [
      'indicators',
      [
        '- a',
        '-a',
        '? a',
        '?a',
        ': a',
        ':a',
        'a:',
        'a: b',
        'a:b',
        'a #b',
        'a#b',
        '#a',
        '[a',
        'a]',
        '{a',
        'a}',
        'a,b',
        ',a',
        '&a',
        '*a',
        '!a',
        '|a',
        '>a',
        "'a",
        '"a',
        '%a',
        '@a',
        '`a',
        '=a',
        'a:#',
        'a :b',
      ],
    ],
    ['keys that need quotes', { ': ': 1, '- a': 2, '#': 3, 'a b': 4, '"': 5, '': 6, ' ': 7, 'a:': 8 }],
    ['empty strings', { '': '', a: [''] }],
    ['keys up to and past 1,024 characters', { ['k'.repeat(1024)]: 1, ['k'.repeat(1025)]: { a: 1, b: [1, 'a\nb'] }, ['"'.repeat(600)]: [1, 2], ['k'.repeat(2000)]: {} }],
    ['integer-like keys, which objects list first', { b: 1, 2: 'two', a: 3, 1: 'one' }],
  ])('on %s', (_, value) => {
    expect(yamlText(value)).toBe(jsYaml(value));
  });

  test('on every object of examples/fleet, the benchmark fleet and the other examples, read back from their files', () => {
    const fleet = new HcpApp({ outdir: 'unused' });
    Fleet.fromFile(fleet, path.join(ROOT, 'examples', 'fleet', 'fleet.yaml'));
    const bench = new HcpApp({ outdir: 'unused' });
    Fleet.fromInventory(bench, fleetInventory(30));
    const apps = [fleet, bench, ...['agent-lab/main.js', 'disconnected-dual-stack/main.js', 'aws/clusters.js', 'day2/main.js', 'guest-workloads/main.js', 'lvm-hcp/main.js'].map(appOfExample)];
    let objects = 0;
    for (const app of apps) {
      for (const file of app.synthesize().filter((f) => /\.ya?ml$/.test(f.path))) {
        for (const object of loadAll(file.text)) {
          objects++;
          expectSameAsJsYaml(object);
        }
      }
    }
    expect(objects).toBeGreaterThan(500);
  });
});

describe('yamlText and YAML 1.1 readers', () => {
  // Kubernetes reads manifests with go-yaml v2, a YAML 1.1 reader; the yaml package's 1.1 mode
  // reads numbers the same way (`_` dropped from digits, a sign before `.5`).
  const numbersIn11 = ['1_000', '1_', '-1_0', '1_0.5', '0x_FF', '0b1_0', '0b-1', '+.5', '-.5', '+.5e3', '0X1F', '0B1', '0O7', '1e3', '12:30:00', 'yes', 'off', '~'];

  test.each(numbersIn11)('a string %j comes back a string, as a value and as a key', (text) => {
    expect(parse(yamlText({ value: text, list: [text] }), { version: '1.1' })).toEqual({ value: text, list: [text] });
    expect(parse(yamlText({ [text]: 'key' }), { version: '1.1' })).toEqual({ [text]: 'key' });
  });

  test('strings that only look close to a number stay plain', () => {
    // go-yaml v2 starts a number only at a digit, a sign or a dot: `_1` is a string to it.
    expect(yamlText(['_1', '1_a', '0x', 'v1_0', '1.2.3', '+', '-', '1-0b-1'])).toBe('- _1\n- 1_a\n- 0x\n- v1_0\n- 1.2.3\n- +\n- "-"\n- 1-0b-1\n');
  });
});

/** The HcpApp an example builds, caught at its synth() call instead of written out. */
function appOfExample(file: string): HcpApp {
  let caught: HcpApp | undefined;
  const synth = jest.spyOn(HcpApp.prototype, 'synth').mockImplementation(function (this: HcpApp) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- synth() is where the app an example builds can be taken
    caught = this;
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an example runs when loaded: by its path, at this moment
  require(path.join(ROOT, 'build', 'examples', file));
  synth.mockRestore();
  if (!caught) throw new Error(`${file} did not call synth()`);
  return caught;
}

describe('yamlText leaves values outside JSON to js-yaml', () => {
  class Point {
    constructor(
      readonly x = 1,
      readonly y = [2],
    ) {}
  }
  // Through an array: js-yaml takes seconds to overflow the stack on a cycle of objects alone.
  const cycle = { a: 1, items: [] as unknown[] };
  cycle.items.push(cycle);
  const tagged = { a: 1, [Symbol.toStringTag]: 'Tagged' };

  test.each<[string, unknown]>([
    ['undefined inside an object', { a: undefined, b: 1 }],
    ['an object whose only value is undefined', { a: { b: undefined } }],
    ['undefined in an array', [1, undefined]],
    ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['undefined', undefined],
    ['a Date', { at: new Date(Date.UTC(2001, 11, 14)) }],
    ['a class instance', { point: new Point() }],
    ['an object without a prototype', Object.assign(Object.create(null), { a: 1 })],
    ['a Buffer', Buffer.from('hello')],
    ['a boxed string and number', [new String('yes'), new Number(3)]], // eslint-disable-line no-new-wrappers -- the boxed values are the case under test
    ['a function', { f: () => 1 }],
    ['a symbol', [Symbol('s')]],
    ['a bigint', { n: BigInt(1) }],
    ['a Map', new Map([['a', 1]])],
    ['an object with its own toStringTag', tagged],
    ['a cycle', cycle],
  ])('%s: the same text or error', (_, value) => {
    expect(outcome(yamlText, value)).toBe(outcome(jsYaml, value));
  });
});
