// Holds a health-check script to the Lua Argo CD runs it in: gopher-lua, Lua 5.1 (argo-cd
// util/lua/lua.go imports github.com/yuin/gopher-lua; its config.go says LuaVersion "Lua 5.1"),
// with only the libraries Argo CD opens for the check. The tests run the scripts in fengari, Lua
// 5.3, which accepts more: this is what keeps a script that passes there from failing in Argo CD.
import { parse } from 'luaparse';
import type { Node } from 'luaparse';

/** The names a script may use. Members are those gopher-lua registers (v1.1.2, the one argo-cd's go.mod pins). */
const OBJ_AND_BASE = [
  // argo-cd binds the object (util/lua/lua.go, runLuaWithResourceActionParameters)
  'obj',
  // baselib.go, OpenBase and baseFuncs
  ...['_G', '_VERSION', 'assert', 'collectgarbage', 'dofile', 'error', 'getfenv', 'getmetatable', 'ipairs', 'loadfile', 'loadstring', 'module'],
  ...['next', 'pairs', 'pcall', 'print', 'rawequal', 'rawget', 'rawset', 'require', 'select', 'setfenv', 'setmetatable', 'tonumber', 'tostring'],
  ...['type', 'unpack', 'xpcall'],
];
/** The libraries Argo CD opens for every check: table (tablelib.go, tableFuncs) and its own os (util/lua/oslib_safe.go, osFuncs). */
const ALWAYS_OPEN: Record<string, readonly string[]> = {
  table: ['concat', 'getn', 'insert', 'maxn', 'remove', 'sort'],
  os: ['date', 'time'],
};
/** The libraries a check has only with useOpenLibs: string (stringlib.go, strFuncs and OpenString) and math (mathlib.go, mathFuncs and OpenMath). */
const OPEN_LIBS: Record<string, readonly string[]> = {
  string: ['byte', 'char', 'dump', 'find', 'format', 'gfind', 'gmatch', 'gsub', 'len', 'lower', 'match', 'rep', 'reverse', 'sub', 'upper'],
  math: [
    ...['abs', 'acos', 'asin', 'atan', 'atan2', 'ceil', 'cos', 'cosh', 'deg', 'exp', 'floor', 'fmod', 'frexp', 'huge', 'ldexp', 'log', 'log10'],
    ...['max', 'min', 'mod', 'modf', 'pi', 'pow', 'rad', 'random', 'randomseed', 'sin', 'sinh', 'sqrt', 'tan', 'tanh'],
  ],
};
/** Names a script written against Lua 5.2 or 5.3 reaches for, refused with why (checked before the lists above). */
export const REFUSED_NAMES: Record<string, string> = {
  'table.unpack': 'Lua 5.2+; 5.1 has the global unpack',
  'table.pack': 'Lua 5.2+',
  'table.move': 'Lua 5.3',
  utf8: 'the utf8 library is Lua 5.3',
  bit32: 'the bit32 library is Lua 5.2',
  'math.type': 'Lua 5.3; 5.1 numbers have no integer subtype',
  'math.tointeger': 'Lua 5.3; 5.1 numbers have no integer subtype',
  'math.maxinteger': 'Lua 5.3; 5.1 numbers have no integer subtype',
  'math.mininteger': 'Lua 5.3; 5.1 numbers have no integer subtype',
  'math.ult': 'Lua 5.3',
  'string.pack': 'Lua 5.3',
  'string.unpack': 'Lua 5.3',
  'string.packsize': 'Lua 5.3',
  'string.format':
    "gopher-lua formats with Go's fmt.Sprintf (stringlib.go, strFormat): %d of 1.5 prints 1 where Lua 5.3 raises an error, and other verbs differ; join with .. instead (gopher-lua prints a whole number without a fraction)",
  rawlen: 'Lua 5.2+; use #',
  _ENV: 'Lua 5.2+; 5.1 has setfenv',
  load: "5.1's load takes a reader function and 5.2+'s a string, so one call means two things; use loadstring",
};
/** Syntax of Lua 5.2 and 5.3 that 5.1 does not parse, to name what a 5.1 parse error stops at. */
const NEWER_SYNTAX: readonly [RegExp, string][] = [
  [/\/\//, '`//` (integer division, Lua 5.3)'],
  [/<<|>>/, '`<<` / `>>` (bitwise shifts, Lua 5.3)'],
  [/&|\||~(?!=)/, '`&`, `|` or `~` (bitwise operators, Lua 5.3)'],
  [/::|\bgoto\b/, '`goto` or a `::label::` (Lua 5.2+)'],
];
/** The escapes of a Lua 5.1 string literal (manual §2.1); `\x`, `\z` and `\u{…}` are 5.2+. */
const LUA51_ESCAPE = /^\\(?:[abfnrtv\\"'\n]|\r\n?|\d{1,3})/;

/** How Argo CD runs the script: with the standard libraries only when `useOpenLibs` (argocd-cm, `resource.customizations.useOpenLibs.<group>_<kind>`). */
export interface LuaRun {
  /** Whether the check has Lua's standard libraries. */
  readonly useOpenLibs?: boolean;
}

/** Every way the script `name` would fail or behave otherwise in Argo CD's gopher-lua, one line each, naming the script, the line and the construct; empty when none. */
export function lua51Problems(name: string, script: string, run: LuaRun = {}): string[] {
  let chunk: Node;
  try {
    chunk = parse(script, { luaVersion: '5.1', scope: true, locations: true });
  } catch (error) {
    return [syntaxProblem(name, script, error as Error & { line?: number })];
  }
  const problems: string[] = [];
  const problem = (node: Node, what: string, why: string): void => void problems.push(`${name}, line ${node.loc?.start.line}: ${what}: ${why}`);
  const libraries: Record<string, readonly string[]> = { ...ALWAYS_OPEN, ...(run.useOpenLibs ? OPEN_LIBS : {}) };
  const assigned = new Set<string>();
  // luaparse's scope tracking marks a name local or global; a member or table key name is neither.
  const isGlobal = (node: Node): node is Node & { type: 'Identifier'; name: string } => node.type === 'Identifier' && (node as { isLocal?: boolean }).isLocal === false;

  /** A read of a global, or of `library.member` when `member` is given. */
  const checkName = (node: Node, global: string, member?: string): void => {
    const path = member === undefined ? global : `${global}.${member}`;
    if (REFUSED_NAMES[path] ?? REFUSED_NAMES[global]) return problem(node, path, REFUSED_NAMES[path] ?? REFUSED_NAMES[global]);
    if (libraries[global]) {
      if (member !== undefined && !libraries[global].includes(member)) problem(node, path, `gopher-lua's ${global} library has no ${member}`);
      return;
    }
    if (OPEN_LIBS[global]) return problem(node, path, `Argo CD opens the ${global} library only for a check with useOpenLibs`);
    if (!OBJ_AND_BASE.includes(global) && !assigned.has(global)) problem(node, global, 'not a global of gopher-lua nor one the script sets');
  };

  const visit = (node: Node): void => {
    switch (node.type) {
      case 'MemberExpression':
        if (node.indexer === ':') problem(node, `a method call (:${node.identifier.name})`, 'the checker cannot tell which library it reaches; call library.function(value)');
        else if (isGlobal(node.base)) return checkName(node, node.base.name, node.identifier.name);
        break;
      case 'IndexExpression':
        if (isGlobal(node.base) && (libraries[node.base.name] || OPEN_LIBS[node.base.name] || REFUSED_NAMES[node.base.name])) {
          if (node.index.type !== 'StringLiteral') problem(node, `${node.base.name}[…]`, 'a library indexed by a computed key cannot be checked');
          else checkName(node, node.base.name, stringValue(node.index.raw));
          return visit(node.index);
        }
        break;
      case 'Identifier':
        if (isGlobal(node)) checkName(node, node.name);
        return;
      case 'StringLiteral':
        for (const escape of escapesOf(node.raw).filter((e) => !LUA51_ESCAPE.test(e))) problem(node, `the escape ${escape.slice(0, 4)}`, 'not a Lua 5.1 escape');
        return;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  // Globals the script sets are known before any read, wherever they are set.
  const collect = (node: Node): void => {
    if (node.type === 'AssignmentStatement') node.variables.filter(isGlobal).forEach((v) => assigned.add(v.name));
    if (node.type === 'FunctionDeclaration' && node.identifier && isGlobal(node.identifier)) assigned.add(node.identifier.name);
    childrenOf(node).forEach(collect);
  };
  collect(chunk);
  visit(chunk);
  return problems;
}

/** A 5.1 parse error, with the newer syntax on its line named when there is some. */
function syntaxProblem(name: string, script: string, error: Error & { line?: number }): string {
  const line = error.line === undefined ? '' : (script.split('\n')[error.line - 1] ?? '');
  const newer = NEWER_SYNTAX.find(([pattern]) => pattern.test(line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|--.*$/g, '""')));
  return `${name}, line ${error.line}: ${newer ? `${newer[1]} is not Lua 5.1` : 'not Lua 5.1'}, which Argo CD runs (gopher-lua): ${error.message}`;
}

/** The backslash escapes in a string literal's source (quoted strings; a long string has none). */
function escapesOf(raw: string): string[] {
  if (raw.startsWith('[')) return [];
  return [...raw.matchAll(/\\(?:\r\n?|[\s\S])\d{0,2}/g)].map((m) => m[0]);
}

/** The value of a short string literal without escapes (a library member's name). */
function stringValue(raw: string): string {
  return raw.startsWith('[') ? raw.replace(/^\[=*\[|\]=*\]$/g, '') : raw.slice(1, -1);
}

/** The nodes directly under a node, in source order. */
function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    // a Chunk lists its global names again under `globals`
    if (key === 'loc' || key === 'range' || key === 'globals') continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item && typeof item === 'object' && typeof (item as Node).type === 'string') children.push(item as Node);
    }
  }
  return children;
}
