import { DEFAULT_SCHEMA, dump, Type } from 'js-yaml';

/**
 * Whether a YAML 1.1 reader takes the plain text for a number: every number js-yaml's schema
 * reads, and more. Kubernetes reads manifests with go-yaml v2 (sigs.k8s.io/yaml), which, for a text
 * that starts like a number, drops every `_` (`1_000` is 1000), and accepts a sign before `.5`,
 * upper-case `0X`, `0O` and `0B` prefixes and a sign after `0b` (`0b-1`).
 */
function readsAsYaml11Number(text: string): boolean {
  if (!NUMBER_START.includes(text[0])) return false;
  const digits = text.includes('_') ? text.replace(/_/g, '') : text;
  return YAML_1_1_INTEGER.test(digits) || YAML_1_1_FLOAT.test(digits);
}
const NUMBER_START = '0123456789+-.';
const YAML_1_1_INTEGER = /^(?:[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)|0b[-+][01]+)$/;
const YAML_1_1_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/**
 * The options hcp-cdk writes every object with, and the ones `yamlText` reproduces. The schema
 * adds YAML 1.1's numbers to js-yaml's as an implicit type, so that a string the API server would
 * read as a number (`1_000`, `-.5`) is quoted by js-yaml too: it is never read back, only compared.
 */
export const YAML_DUMP_OPTIONS = {
  lineWidth: -1,
  noRefs: true,
  quotingType: '"',
  schema: DEFAULT_SCHEMA.extend({ implicit: [new Type('tag:hcp-cdk.io,2026:yaml-1.1-number', { kind: 'scalar', resolve: (text: unknown) => typeof text === 'string' && readsAsYaml11Number(text) })] }),
} as const;

/**
 * The YAML text of `value`, byte for byte what js-yaml 4's `dump(value, YAML_DUMP_OPTIONS)` returns
 * (no line folding, no anchors, keys in the object's order, strings that a reader would take for
 * something else double-quoted), in a fraction of its time.
 *
 * Written here for JSON data: objects whose prototype is `Object.prototype` (keys in insertion
 * order), arrays without holes, strings, numbers (`NaN`, `±Infinity` and `-0` included), booleans
 * and `null`. Any other value anywhere inside (`undefined`, a function, a symbol, a bigint, a Date, a
 * Buffer, a boxed primitive, an instance of a class, an object without a prototype, a sparse
 * array, a cycle) hands the whole value to js-yaml's `dump` with the same options, so the result,
 * or the error, is js-yaml's own.
 */
export function yamlText(value: unknown): string {
  try {
    return node(value, 0, true) + '\n';
  } catch (error) {
    // A cycle overflows the stack here as it does in js-yaml: it gets to throw its own RangeError.
    if (error === OUTSIDE_JSON || error instanceof RangeError) return dump(value, YAML_DUMP_OPTIONS);
    throw error;
  }
}

/** Thrown from anywhere in the walk to give the whole value to js-yaml. */
const OUTSIDE_JSON = new Error('outside the JSON domain');

/**
 * One node at nesting `level`. `compact` says that the node follows a `- ` or `: ` on the same line,
 * so a mapping or sequence starts there instead of on a line of its own.
 */
function node(value: unknown, level: number, compact: boolean): string {
  switch (typeof value) {
    case 'string':
      return valueScalar(value, level);
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const prototype = Object.getPrototypeOf(value);
      // js-yaml takes a sequence or a mapping by its toString tag, which an own Symbol.toStringTag would change.
      if (prototype === Array.prototype && Object.prototype.toString.call(value) === '[object Array]') return sequence(value as unknown[], level, compact);
      if (prototype === Object.prototype && Object.prototype.toString.call(value) === '[object Object]') return mapping(value as Record<string, unknown>, level, compact);
    }
  }
  throw OUTSIDE_JSON;
}

function sequence(items: unknown[], level: number, compact: boolean): string {
  if (items.length === 0) return '[]';
  const lineStart = newlineAndIndent(level);
  let text = '';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // js-yaml writes null for undefined items and holes: left to it.
    if (item === undefined) throw OUTSIDE_JSON;
    if (i > 0 || !compact) text += lineStart;
    // An item is compact, so it never starts with a newline: always `- ` before it.
    text += '- ' + node(item, level + 1, true);
  }
  return text;
}

/** Past this length js-yaml writes a key as an explicit `? key` line. */
const IMPLICIT_KEY_MAX = 1024;

function mapping(object: Record<string, unknown>, level: number, compact: boolean): string {
  const keys = Object.keys(object);
  if (keys.length === 0) return '{}';
  const lineStart = newlineAndIndent(level);
  let text = '';
  for (let i = 0; i < keys.length; i++) {
    const value = object[keys[i]];
    // js-yaml leaves such a pair out (and writes `{}` when none is left): left to it.
    if (value === undefined) throw OUTSIDE_JSON;
    if (i > 0 || !compact) text += lineStart;
    const key = keyScalar(keys[i]);
    if (key.length > IMPLICIT_KEY_MAX) {
      text += '? ' + key + lineStart + ': ' + node(value, level + 1, true);
    } else {
      const written = node(value, level + 1, false);
      text += key + (startsOnNextLine(value, written) ? ':' : ': ') + written;
    }
  }
  return text;
}

/**
 * Whether a mapping's value is a nested mapping or sequence, which starts on the next line. Told
 * from the value, not from the text's first character: reading that would copy the whole nested
 * text into one flat string, at every level.
 */
function startsOnNextLine(value: unknown, written: string): boolean {
  return typeof value === 'object' && value !== null && written !== '{}' && written !== '[]';
}

const lineStarts: string[] = [];

/** A line break and the indentation of a mapping or sequence at `level` (two spaces a level). */
function newlineAndIndent(level: number): string {
  return (lineStarts[level] ??= '\n' + '  '.repeat(level));
}

/** A number as js-yaml's int and float types write it (`5e-7` needs a dot to stay a float in YAML). */
function numberText(n: number): string {
  if (n % 1 === 0 && !Object.is(n, -0)) return String(n);
  if (n !== n) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  if (n === 0) return '-0.0';
  const text = String(n);
  return /^-?[0-9]+e/.test(text) ? text.replace('e', '.e') : text;
}

// ---- Scalars ----------------------------------------------------------------------------------

/**
 * The keys and values of thousands of objects repeat (`apiVersion`, `metadata`, kinds, the
 * namespace, the release image), so each string's written form is worked out once. Unique strings
 * (names, addresses) land here too: to keep a long-running process from growing without limit,
 * both caches are emptied once the strings they hold add up to CACHE_CHARS characters; the strings
 * that repeat are back after one render each.
 */
const CACHE_CHARS = 1 << 22;
let cachedChars = 0;
/** A key's written form. */
const writtenKeys = new Map<string, string>();
/** A value's written form: the same at every level, or a block scalar indented by level. */
const writtenValues = new Map<string, string | BlockScalar>();

function remember(text: string, written: number): void {
  cachedChars += text.length + written;
  if (cachedChars > CACHE_CHARS) {
    writtenKeys.clear();
    writtenValues.clear();
    cachedChars = 0;
  }
}

function keyScalar(key: string): string {
  let written = writtenKeys.get(key);
  if (written === undefined) {
    written = scalarStyle(key, false) === Style.PLAIN ? key : doubleQuoted(key);
    remember(key, written.length);
    writtenKeys.set(key, written);
  }
  return written;
}

function valueScalar(value: string, level: number): string {
  let written = writtenValues.get(value);
  if (written === undefined) {
    const style = scalarStyle(value, true);
    written = style === Style.PLAIN ? value : style === Style.DOUBLE ? doubleQuoted(value) : new BlockScalar(value);
    remember(value, typeof written === 'string' ? written.length : 0);
    writtenValues.set(value, written);
  }
  return typeof written === 'string' ? written : written.at(level);
}

/** A multi-line value as a literal block scalar (`|`), whose text depends on its indentation. */
class BlockScalar {
  private readonly header: string;
  private readonly lines: string[];
  private readonly byLevel: string[] = [];

  constructor(text: string) {
    // The reader takes the indentation from the first non-empty line: one that starts with a space
    // needs it stated. The chomping indicator keeps the trailing line breaks as they are.
    const indentIndicator = /^\n* /.test(text) ? '2' : '';
    const endsWithBreak = text.endsWith('\n');
    const chomping = !endsWithBreak ? '-' : text.length === 1 || text.endsWith('\n\n') ? '+' : '';
    this.header = '|' + indentIndicator + chomping;
    this.lines = text.split('\n');
    // The line break that ends the text is the one the line after the scalar starts with.
    if (endsWithBreak) this.lines.pop();
  }

  /** The scalar as a value at `level`: its lines indented one step deeper, empty lines left empty. */
  at(level: number): string {
    let written = this.byLevel[level];
    if (written === undefined) {
      const indent = '  '.repeat(Math.max(1, level));
      written = this.header;
      for (const line of this.lines) written += line === '' ? '\n' : '\n' + indent + line;
      remember(written, 0);
      this.byLevel[level] = written;
    }
    return written;
  }
}

const enum Style {
  PLAIN,
  DOUBLE,
  LITERAL,
}

const LF = 0x0a;
const SPACE = 0x20;
const HASH = 0x23;
const COLON = 0x3a;

/**
 * How js-yaml writes a string: plain when js-yaml would read it back as that same string and a
 * YAML 1.1 reader too (no `yes`, no `12:30`), a literal block when it has line breaks (values
 * only: keys stay on one line), else double-quoted.
 */
function scalarStyle(text: string, blockAllowed: boolean): Style {
  if (text === '' || YAML_1_1_BOOLEANS.has(text) || SEXAGESIMAL.test(text)) return Style.DOUBLE;
  let plain = canStartPlain(text.codePointAt(0)!) && canEndPlain(text.charCodeAt(text.length - 1));
  let lineBreak = false;
  let previous = -1;
  for (let i = 0; i < text.length;) {
    const c = text.codePointAt(i)!;
    i += c > 0xffff ? 2 : 1;
    if (c === LF && blockAllowed) lineBreak = true;
    else if (!isPrintable(c)) return Style.DOUBLE;
    // `: ` starts a value and ` #` a comment; a `#` or `:` elsewhere is plain text.
    else if (plain) plain = c === HASH ? previous !== -1 && previous !== SPACE : !(c === SPACE && previous === COLON);
    previous = c;
  }
  if (lineBreak) return Style.LITERAL;
  return plain && !readsAsAnotherType(text) ? Style.PLAIN : Style.DOUBLE;
}

/** Characters written as they are in any style; the others are escaped in double quotes. */
function isPrintable(c: number): boolean {
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa1 && c <= 0xd7ff && c !== 0x2028 && c !== 0x2029) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) || (c >= 0x10000 && c <= 0x10ffff);
}

/** A plain scalar cannot start with white space or with an indicator (`-`, `?`, `[`, `&`, `%`, …). */
function canStartPlain(c: number): boolean {
  return isPrintable(c) && c !== SPACE && !(c < 0x80 && PLAIN_FIRST_INDICATORS.includes(String.fromCharCode(c)));
}
const PLAIN_FIRST_INDICATORS = '-?:,[]{}#&*!|=>\'"%@`';

/** …nor end with white space (it would be lost) or a colon (it would start a mapping). */
function canEndPlain(c: number): boolean {
  return c !== SPACE && c !== 0x09 && c !== COLON;
}

/** Words YAML 1.1 reads as booleans: js-yaml quotes them for older readers (the Kubernetes API server among them). */
const YAML_1_1_BOOLEANS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
/** YAML 1.1's base-60 numbers (`12:30:00`), quoted for the same reason. */
const SEXAGESIMAL = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;

/** Whether js-yaml's default schema, or a YAML 1.1 reader, would read the plain text as null, a boolean, a number, a date or a merge key. */
function readsAsAnotherType(text: string): boolean {
  // Every such form starts with one of these characters: the rest of the strings need no pattern.
  if (!MAY_START_ANOTHER_TYPE.includes(text[0])) return false;
  return NULL_OR_BOOLEAN.has(text) || text === '<<' || readsAsYaml11Number(text) || INFINITY_OR_NAN.test(text) || DATE.test(text) || TIMESTAMP.test(text);
}
const MAY_START_ANOTHER_TYPE = '~nNtTfF0123456789+-.<';
const NULL_OR_BOOLEAN = new Set(['~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
const INFINITY_OR_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?$/;

const ESCAPES: Readonly<Record<number, string>> = {
  0x00: '\\0',
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
  0x1b: '\\e',
  0x22: '\\"',
  0x5c: '\\\\',
  0x85: '\\N',
  0xa0: '\\_',
  0x2028: '\\L',
  0x2029: '\\P',
};

/** The text in double quotes: YAML's named escapes, else `\x`, `\u` or `\U` and two, four or eight hex digits for other unprintable code points. */
function doubleQuoted(text: string): string {
  let written = '"';
  let copiedUpTo = 0;
  for (let i = 0; i < text.length;) {
    const c = text.codePointAt(i)!;
    const width = c > 0xffff ? 2 : 1;
    const escape = ESCAPES[c];
    if (escape !== undefined || !isPrintable(c)) {
      written += text.slice(copiedUpTo, i) + (escape ?? hexEscape(c));
      copiedUpTo = i + width;
    }
    i += width;
  }
  return written + text.slice(copiedUpTo) + '"';
}

function hexEscape(c: number): string {
  const hex = c.toString(16).toUpperCase();
  return c <= 0xff ? '\\x' + hex.padStart(2, '0') : c <= 0xffff ? '\\u' + hex.padStart(4, '0') : '\\U' + hex.padStart(8, '0');
}
