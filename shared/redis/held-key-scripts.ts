/**
 * Scripts of a key held by a token (a random value the holder set with SET NX PX): the document
 * lock (shared/status/doc-lock.ts) and the watcher's leader lease (apps/watcher/leader-lease.ts).
 * Only the holder may extend or release it: a holder that lost the key (it expired and another
 * took it) must not touch the new holder's.
 */
import { defineLuaScript, luaSource } from './lua.ts';

/** Extends the key's TTL (ms) if `token` still holds it. True when extended. */
export const RENEW_IF_HELD = defineLuaScript<[key: string], [token: string, ttlMs: number], boolean>({
  name: 'renew-if-held',
  keys: 1,
  source: luaSource(new URL('./renew-if-held.lua', import.meta.url)),
  reply: (raw) => Number(raw) === 1,
});

/** Deletes the key if `token` still holds it. True when deleted. */
export const RELEASE_IF_HELD = defineLuaScript<[key: string], [token: string], boolean>({
  name: 'release-if-held',
  keys: 1,
  source: luaSource(new URL('./release-if-held.lua', import.meta.url)),
  reply: (raw) => Number(raw) === 1,
});
