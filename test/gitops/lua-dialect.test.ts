// Every Argo CD health check hcp-cdk ships is Lua 5.1 with the libraries Argo CD gives it, as
// gopher-lua in Argo CD runs it (lua-dialect.ts), and prints the numbers of the status corpus as
// gopher-lua does: the other suites run the scripts in fengari, Lua 5.3, which accepts more.
import { ARGO_CD_HEALTH_CHECKS } from '../../lib';
import { STATUS_CORPUS } from '../status/status-corpus';
import { lua51Problems, REFUSED_NAMES } from './lua-dialect';
import { runHealthCheck } from './lua-health';

describe('the shipped health checks', () => {
  test.each(ARGO_CD_HEALTH_CHECKS.map((c) => [`${c.group}_${c.kind}`, c] as const))('%s is Lua 5.1 with the libraries Argo CD opens for it', (name, check) => {
    expect(lua51Problems(name, check.check, check)).toEqual([]);
  });

  test('only the NodePool check asks for the standard libraries, and it needs them', () => {
    expect(ARGO_CD_HEALTH_CHECKS.filter((c) => c.useOpenLibs).map((c) => c.kind)).toEqual(['NodePool']);
    const nodePool = ARGO_CD_HEALTH_CHECKS.find((c) => c.kind === 'NodePool')!;
    expect(lua51Problems('NodePool', nodePool.check)).toEqual([expect.stringMatching(/^NodePool, line \d+: string\.find: Argo CD opens the string library only for a check with useOpenLibs$/)]);
  });

  test('fengari prints every number of the status corpus as gopher-lua does', () => {
    const numbers = new Set<number>();
    const collect = (value: unknown): void => {
      if (typeof value === 'number') numbers.add(value);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
    };
    STATUS_CORPUS.forEach((shape) => collect(shape.object));
    expect(numbers.size).toBeGreaterThan(0);
    for (const n of numbers) {
      // gopher-lua prints a whole number as an int64 (value.go, LNumber.String); a fraction, with Go's %v, is not modelled here.
      expect(Number.isInteger(n)).toBe(true);
      expect(runHealthCheck('return { status = "Healthy", message = "" .. obj.n }', { n }).message).toBe(String(n));
    }
  });
});

describe('the checker refuses', () => {
  test('integer division, a Lua 5.3 operator, naming the script, the line and the construct', () => {
    expect(lua51Problems('half.lua', 'local n = 7\nreturn { status = "Healthy", message = "" .. n // 2 }')).toEqual([
      "half.lua, line 2: `//` (integer division, Lua 5.3) is not Lua 5.1, which Argo CD runs (gopher-lua): [2:48] <expression> expected near '/'",
    ]);
  });

  test('table.unpack, a Lua 5.2 function, naming the script, the line and the construct', () => {
    expect(lua51Problems('spread.lua', 'local a, b = 1, 2\nlocal first = table.unpack({ a, b })\nreturn { status = "Healthy" }')).toEqual([
      'spread.lua, line 2: table.unpack: Lua 5.2+; 5.1 has the global unpack',
    ]);
  });

  test.each([
    ['bitwise and', 'return 6 & 3', '`&`, `|` or `~` (bitwise operators, Lua 5.3)'],
    ['a shift', 'return 1 << 4', '`<<` / `>>` (bitwise shifts, Lua 5.3)'],
    ['goto', 'goto done\n::done::', '`goto` or a `::label::` (Lua 5.2+)'],
  ])('%s', (_, script, construct) => {
    expect(lua51Problems('s.lua', script)).toEqual([expect.stringContaining(`s.lua, line 1: ${construct} is not Lua 5.1`)]);
  });

  test.each(Object.entries(REFUSED_NAMES))('%s', (name, why) => {
    const [library, member] = name.split('.');
    const script = member === undefined ? `local x = ${library}` : `local x = ${library}.${member}`;
    expect(lua51Problems('s.lua', script, { useOpenLibs: true })).toEqual([`s.lua, line 1: ${name}: ${why}`]);
  });

  test('a library member gopher-lua lacks, a library without useOpenLibs, an unknown global, a method call, a newer escape', () => {
    const script = [
      'local a = table.find',
      'local b = math.floor(1.5)',
      'local c = string["len"]("x")',
      'local d = mystery',
      'local e = ("x"):upper()',
      'local f = "\\x41"',
      'answer = 42',
      'return { status = "Healthy", message = tostring(answer) .. os.date() }',
    ].join('\n');
    expect(lua51Problems('s.lua', script)).toEqual([
      "s.lua, line 1: table.find: gopher-lua's table library has no find",
      's.lua, line 2: math.floor: Argo CD opens the math library only for a check with useOpenLibs',
      's.lua, line 3: string.len: Argo CD opens the string library only for a check with useOpenLibs',
      's.lua, line 4: mystery: not a global of gopher-lua nor one the script sets',
      's.lua, line 5: a method call (:upper): the checker cannot tell which library it reaches; call library.function(value)',
      's.lua, line 6: the escape \\x41: not a Lua 5.1 escape',
    ]);
    expect(lua51Problems('s.lua', script.replace('table.find', 'table.concat').replace('mystery', 'answer'), { useOpenLibs: true })).toEqual([
      's.lua, line 5: a method call (:upper): the checker cannot tell which library it reaches; call library.function(value)',
      's.lua, line 6: the escape \\x41: not a Lua 5.1 escape',
    ]);
  });
});
