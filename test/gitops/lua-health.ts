// Runs an Argo CD health-check script in a Lua VM (fengari, Lua 5.3; Argo CD runs gopher-lua,
// Lua 5.1: lua-dialect.test.ts holds the scripts to 5.1), with `obj` bound as Argo CD binds it and
// the libraries Argo CD opens for it.
import { ArgoCdHealthCheck } from '../../lib';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { lua, lauxlib, lualib, to_luastring } = require('fengari');

/**
 * The status and message the script returns for `object`. Without `useOpenLibs` the script has the
 * base and table libraries only, as in Argo CD (argo-cd util/lua/lua.go,
 * `runLuaWithResourceActionParameters`), so a call of `string.*` fails here as it fails there.
 */
export function runHealthCheck(script: string, object: unknown, libraries: { useOpenLibs?: boolean } = {}): { status: string; message?: string } {
  const L = lauxlib.luaL_newstate();
  if (libraries.useOpenLibs) lualib.luaL_openlibs(L);
  else {
    for (const [name, open] of [
      ['_G', lualib.luaopen_base],
      ['table', lualib.luaopen_table],
    ]) {
      lauxlib.luaL_requiref(L, to_luastring(name), open, 1);
      lua.lua_pop(L, 1);
    }
  }
  push(L, object);
  lua.lua_setglobal(L, to_luastring('obj'));
  if (lauxlib.luaL_loadstring(L, to_luastring(script)) !== lua.LUA_OK || lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) {
    throw new Error(`the health check failed: ${lua.lua_tojsstring(L, -1)}`);
  }
  const field = (name: string): string | undefined => {
    lua.lua_getfield(L, -1, to_luastring(name));
    const value = lua.lua_isnil(L, -1) ? undefined : lua.lua_tojsstring(L, -1);
    lua.lua_pop(L, 1);
    return value;
  };
  const message = field('message');
  return { status: field('status')!, ...(message !== undefined ? { message } : {}) };
}

/** What Argo CD says of `object` with `check` installed: its script, with the libraries it asks for. */
export function runArgoCdCheck(check: ArgoCdHealthCheck, object: unknown): { status: string; message?: string } {
  return runHealthCheck(check.check, object, { useOpenLibs: check.useOpenLibs });
}

/** Pushes a JSON value as Lua sees it in Argo CD (argo-cd util/lua/lua.go, `decodeValue`): objects as tables, arrays as tables indexed from 1. */
function push(L: unknown, value: unknown): void {
  if (value === null || value === undefined) lua.lua_pushnil(L);
  else if (typeof value === 'boolean') lua.lua_pushboolean(L, value);
  // Whole numbers as Lua integers (32 bits in fengari): fengari prints 3 as "3", as gopher-lua
  // prints a whole LNumber (value.go, `LNumber.String`), where the float 3 would print "3.0".
  else if (typeof value === 'number' && (value | 0) === value) lua.lua_pushinteger(L, value);
  else if (typeof value === 'number') lua.lua_pushnumber(L, value);
  else if (typeof value === 'string') lua.lua_pushstring(L, to_luastring(value));
  else if (Array.isArray(value)) {
    lua.lua_createtable(L, value.length, 0);
    value.forEach((item, i) => {
      push(L, item);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else {
    lua.lua_createtable(L, 0, 0);
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      push(L, item);
      lua.lua_setfield(L, -2, to_luastring(key));
    }
  }
}
