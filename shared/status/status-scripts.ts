/**
 * The Lua of the status store (shared/status/status-store.ts), run by shared/redis/lua.ts. KEYS[1]
 * is always the document's status record (`statusKeys(prefix).record(docId)`, shared/redis/keys.ts).
 */
import { defineLuaScript } from '../redis/index.ts';

/** A field and its value, flattened, as UPDATE takes them after its fixed ARGV. */
type FieldValues = (string | number)[];

// Registration decides, atomically, whether bytes are new: the same version registered twice is
// "unchanged" (never re-processed) unless forced or the document was deleted in between.
// The generation is a nonce drawn by the client (ARGV[7] for a first registration, previous +
// ARGV[8] after that), not a counter Redis alone keeps: after Redis loses data (or fails over to
// a lagging replica) a new registration does not reuse a generation, and so a job id, that a
// stale worker may still hold.
/** Registers a version (KEYS: record, index). Returns whether it was new and the generation it runs under. */
export const REGISTER = defineLuaScript<
  [record: string, index: string],
  [docId: string, sourceKey: string, version: string, at: string, force: '1' | '0', atMs: number, firstGen: number, genStep: number],
  { action: 'registered' | 'unchanged'; gen: number }
>({
  name: 'status-register',
  keys: 2,
  source: `
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'version', 'state', 'gen')
if cur[1] == ARGV[3] and cur[2] and cur[2] ~= 'deleting' and cur[2] ~= 'deleted' and ARGV[5] ~= '1' then
  return {'unchanged', tonumber(cur[3])}
end
local gen = tonumber(ARGV[7])
if cur[3] then gen = tonumber(cur[3]) + tonumber(ARGV[8]) end
gen = string.format('%d', gen)
for _, f in ipairs(redis.call('HKEYS', h)) do
  if string.sub(f, 1, 2) == 't_' then redis.call('HDEL', h, f) end
end
redis.call('HSET', h, 'doc_id', ARGV[1], 'source_key', ARGV[2], 'version', ARGV[3], 'gen', gen,
  'state', 'queued', 'stage', 'extract', 'progress', 0, 'error_code', '', 'error_message', '',
  'page_count', '', 'chunk_count', '', 'warnings', '', 'profile', '', 'coverage', '', 'registered_at', ARGV[4], 'updated_at', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
return {'registered', tonumber(gen)}
`,
  reply: (raw) => {
    const [action, gen] = raw as [string, number];
    return { action: action === 'unchanged' ? 'unchanged' : 'registered', gen: Number(gen) };
  },
});

// Updates from a stage apply only to the version and generation that is current: a job of a
// superseded version may still be running and must not overwrite the newer one's status. With a
// stage (ARGV[4]), only while the document is queued at or running that stage: a job delivered
// again after its work was handed on must not move the document back.
/** Sets fields of the record (ARGV from 5: field, value, …) under those conditions. True when applied. */
export const UPDATE = defineLuaScript<[record: string], [version: string, gen: string, at: string, atStage: string, ...fields: FieldValues], boolean>({
  name: 'status-update',
  keys: 1,
  source: `
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'version', 'gen', 'state', 'stage')
if cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] or cur[3] == 'deleting' or cur[3] == 'deleted' then return 0 end
if ARGV[4] ~= '' and (cur[4] ~= ARGV[4] or (cur[3] ~= 'queued' and cur[3] ~= 'running')) then return 0 end
for i = 5, #ARGV, 2 do redis.call('HSET', h, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', h, 'updated_at', ARGV[3])
return 1
`,
  reply: (raw) => Number(raw) === 1,
});

/** Starts a deletion under a new generation. Returns it, or null when there is nothing to delete. */
export const MARK_DELETING = defineLuaScript<[record: string], [at: string, genStep: number], number | null>({
  name: 'status-mark-deleting',
  keys: 1,
  source: `
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'state', 'gen')
if not cur[1] or cur[1] == 'deleted' then return -1 end
local gen = string.format('%d', tonumber(cur[2]) + tonumber(ARGV[2]))
redis.call('HSET', h, 'state', 'deleting', 'stage', 'delete', 'gen', gen, 'progress', 0, 'updated_at', ARGV[1])
return tonumber(gen)
`,
  reply: (raw) => {
    const gen = Number(raw);
    return gen < 0 ? null : gen;
  },
});

/** Ends the deletion of generation ARGV[1], if it is still the one deleting. True when applied. */
export const MARK_DELETED = defineLuaScript<[record: string], [gen: string, at: string], boolean>({
  name: 'status-mark-deleted',
  keys: 1,
  source: `
local h = KEYS[1]
if redis.call('HGET', h, 'gen') ~= ARGV[1] or redis.call('HGET', h, 'state') ~= 'deleting' then return 0 end
redis.call('HSET', h, 'state', 'deleted', 'progress', 100, 'updated_at', ARGV[2])
return 1
`,
  reply: (raw) => Number(raw) === 1,
});
