/**
 * The one way Quarry runs a Lua script in Redis. A script's source is a `.lua` file beside the
 * module that owns it, read by {@link luaSource}; the script is defined once, in the owner's
 * `*-scripts.ts`, with its name, source, number of KEYS and a typed reply; `run` sends EVALSHA
 * and, when Redis does not know the script (NOSCRIPT: first use, or after a restart or SCRIPT
 * FLUSH emptied its cache), EVAL, which also caches it again. Arguments may be binary.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';

/** One ARGV value: numbers are sent as their decimal text, Buffers byte for byte. */
export type LuaArg = string | number | Buffer;

/** What a script is: defined once, run by {@link defineLuaScript}'s `run`. */
export interface LuaScriptDefinition<Result> {
  /** Names the script in a wrong-KEYS error (kebab-case). */
  name: string;
  /** How many KEYS it takes: exactly that many, or at least `min` (the rest vary per call). */
  keys: number | { min: number };
  /** The Lua source; its sha1 is the EVALSHA handle. */
  source: string;
  /** Turns Redis's raw reply into the script's result. */
  reply: (raw: unknown) => Result;
}

/** A defined script: KEYS and ARGV typed as tuples, the reply typed by its parser. */
export interface LuaScript<Keys extends readonly string[], Args extends readonly LuaArg[], Result> {
  readonly name: string;
  readonly source: string;
  /** sha1 of the source, as SCRIPT LOAD returns it. */
  readonly sha: string;
  /**
   * Runs the script atomically on `redis`.
   * @throws TypeError when `keys` does not match the definition's count (a programming error).
   * @throws the Redis error when the script fails (an error reply, Redis down); NOSCRIPT is handled.
   */
  run(redis: Redis, keys: Keys, args: Args): Promise<Result>;
  /**
   * Loads the script into Redis's script cache ahead of its first run (SCRIPT LOAD).
   * @throws Error when Redis reports another sha1 than the one computed here.
   */
  load(redis: Redis): Promise<void>;
}

/**
 * The source of a script from its `.lua` file(s), read when the owner's module loads and joined in
 * order (shared helpers first): `luaSource(new URL('./renew-if-held.lua', import.meta.url))`. The
 * URL holds from the sources and from dist/, where `npm run build` copies every `.lua` file at the
 * same path (infra/copy-assets.mjs).
 * @throws Error naming the file when one is missing (a build that did not copy it).
 */
export function luaSource(...files: URL[]): string {
  return files
    .map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (err) {
        throw new Error(`lua script file ${fileURLToPath(file)} is missing (the build copies .lua files: npm run build)`, { cause: err });
      }
    })
    .join('');
}

/** True for the error Redis answers EVALSHA with when the script is not in its cache. */
function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.includes('NOSCRIPT');
}

/**
 * Defines a Lua script. Give the types explicitly, e.g.
 * `defineLuaScript<[key: string], [token: string], boolean>({ … })`.
 */
export function defineLuaScript<Keys extends readonly string[], Args extends readonly LuaArg[], Result>(
  def: LuaScriptDefinition<Result>,
): LuaScript<Keys, Args, Result> {
  const sha = createHash('sha1').update(def.source).digest('hex');
  const checkKeys = (n: number) => {
    const ok = typeof def.keys === 'number' ? n === def.keys : n >= def.keys.min;
    if (!ok) throw new TypeError(`lua script ${def.name}: ${n} keys given, ${typeof def.keys === 'number' ? def.keys : `at least ${def.keys.min}`} expected`);
  };
  return {
    name: def.name,
    source: def.source,
    sha,
    async run(redis, keys, args) {
      checkKeys(keys.length);
      let raw: unknown;
      try {
        raw = await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (err) {
        if (!isNoScript(err)) throw err;
        raw = await redis.eval(def.source, keys.length, ...keys, ...args);
      }
      return def.reply(raw);
    },
    async load(redis) {
      const loaded = String(await redis.script('LOAD', def.source));
      if (loaded !== sha) throw new Error(`lua script ${def.name}: Redis loaded it as ${loaded}, expected ${sha}`);
    },
  };
}
