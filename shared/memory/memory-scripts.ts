/**
 * The memory store's Lua (shared/memory/memory-store.ts), run by shared/redis/lua.ts. Every change
 * to a chunk's stats is ONE script, so Redis runs it without any other command in between: no lost
 * update under any concurrency, one round trip, and no retry storm (optimistic WATCH/MULTI would
 * make 50 writers of one hot chunk retry O(n²) times). The formulas mirror `chunk-stats.ts`
 * operation for operation, which the integration tests check against the pure fold. The keys are
 * `memoryKeys(prefix)` (shared/redis/keys.ts).
 */
import { defineLuaScript } from '../redis/index.ts';

/** A chunk's useful count and utility, before or after one outcome. */
interface StatsPoint {
  usefulCount: number;
  utility: number;
}

// Helpers shared by the scripts. Lua's `<` on strings follows the server's LC_COLLATE, so ties
// are broken by an explicit byte comparison (= code-point order, as in compareCodePoints).
const HELPERS = `
local function fmt(x) return string.format('%.17g', x) end
local function decay(dt, hl) if dt <= 0 then return 1 end return 2 ^ (-dt / hl) end
local function bytes_less(a, b)
  local la, lb = #a, #b
  for i = 1, math.min(la, lb) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return la < lb
end
local function cap(hist, k, favoured)
  local keys = {}
  for key in pairs(hist) do keys[#keys + 1] = key end
  if #keys <= k then return hist end
  table.sort(keys, function(a, b)
    if hist[a] ~= hist[b] then return hist[a] > hist[b] end
    local fa, fb = favoured[a] == true, favoured[b] == true
    if fa ~= fb then return fa end
    return bytes_less(a, b)
  end)
  local out = {}
  for i = 1, k do out[keys[i]] = hist[keys[i]] end
  return out
end
`;

/**
 * One win for one chunk. KEYS: stats hash, index set, [run marker set]. ARGV: chunk id, at (ms),
 * half-life (ms), intent, entities (JSON array, deduplicated), query vector (float32 LE bytes),
 * entity cap, intent cap, run marker TTL (ms).
 * The run marker makes a re-run of the same agent run a no-op for this chunk: the check, the
 * update and the marker happen in one script, so a crash can never separate them.
 * Returns {applied 0/1, count before, utility before, count after, utility after}, utilities at
 * max(utility_at, at) as %.17g strings (Lua numbers would be truncated to integers in the reply).
 */
export const APPLY_OUTCOME = defineLuaScript<
  [stats: string, index: string] | [stats: string, index: string, runMarker: string],
  [
    chunkId: string,
    atMs: number,
    halfLifeMs: number,
    intent: string,
    entitiesJson: string,
    queryVector: Buffer,
    entityCap: number,
    intentCap: number,
    markerTtlMs: number,
  ],
  { applied: boolean; before: StatsPoint; after: StatsPoint }
>({
  name: 'memory-apply-outcome',
  keys: { min: 2 },
  source: `${HELPERS}
local h, chunk = KEYS[1], ARGV[1]
local at, hl = tonumber(ARGV[2]), tonumber(ARGV[3])
local cur = redis.call('HMGET', h, 'useful_count', 'decayed_utility', 'utility_at', 'last_useful_at',
  'intent_hist', 'entity_hist', 'query_centroid')
local n = tonumber(cur[1]) or 0
local u = tonumber(cur[2]) or 0
local since = tonumber(cur[3]) or at
local t = math.max(since, at)
local before = u * decay(t - since, hl)
local marker = KEYS[3]
if marker and redis.call('SISMEMBER', marker, chunk) == 1 then
  return {'0', tostring(n), fmt(before), tostring(n), fmt(before)}
end
local q, c = ARGV[6], cur[7]
if #q == 0 or #q % 4 ~= 0 then return redis.error_reply('INVALID_VECTOR query vector of ' .. #q .. ' bytes') end
if c and #c ~= #q then
  return redis.error_reply('DIMENSION_MISMATCH stored centroid has ' .. (#c / 4) .. ' dimensions, query vector ' .. (#q / 4))
end
local k = 1
if c then k = n + 1 end
local parts = {}
for i = 0, #q / 4 - 1 do
  local qi = struct.unpack('<f', q, i * 4 + 1)
  local ci = 0
  if c then ci = struct.unpack('<f', c, i * 4 + 1) end
  parts[i + 1] = struct.pack('<f', ci + (qi - ci) / k)
end
local ih = {}
if cur[5] then ih = cjson.decode(cur[5]) end
local eh = {}
if cur[6] then eh = cjson.decode(cur[6]) end
local intent = ARGV[4]
ih[intent] = (ih[intent] or 0) + 1
local seen = {}
for _, e in ipairs(cjson.decode(ARGV[5])) do
  if not seen[e] then
    seen[e] = true
    eh[e] = (eh[e] or 0) + 1
  end
end
ih = cap(ih, tonumber(ARGV[8]), {[intent] = true})
eh = cap(eh, tonumber(ARGV[7]), seen)
local after = before + decay(t - at, hl)
local last = math.max(tonumber(cur[4]) or at, at)
redis.call('HSET', h, 'useful_count', fmt(n + 1), 'last_useful_at', fmt(last), 'decayed_utility', fmt(after),
  'utility_at', fmt(t), 'intent_hist', cjson.encode(ih), 'entity_hist', cjson.encode(eh),
  'query_centroid', table.concat(parts))
redis.call('SADD', KEYS[2], chunk)
if marker then
  redis.call('SADD', marker, chunk)
  redis.call('PEXPIRE', marker, ARGV[9])
end
return {'1', tostring(n), fmt(before), tostring(n + 1), fmt(after)}
`,
  reply: (raw) => {
    const res = raw as [string, string, string, string, string];
    return {
      applied: res[0] === '1',
      before: { usefulCount: Number(res[1]), utility: Number(res[2]) },
      after: { usefulCount: Number(res[3]), utility: Number(res[4]) },
    };
  },
});

/**
 * Materialise-and-prune for a batch. KEYS: index set, then one stats hash per chunk. ARGV: now,
 * half-life, prune-below, prune-idle (ms), then the chunk ids in KEYS order.
 * Idempotent: a chunk already materialised at `now` is not written again. A chunk updated
 * since the scan read its id is judged on its current fields, so a fresh win is never pruned.
 * Returns {updated, pruned}; an index entry without a hash is removed and counted as pruned.
 */
export const DECAY_BATCH = defineLuaScript<
  [index: string, ...stats: string[]],
  [nowMs: number, halfLifeMs: number, pruneBelow: number, pruneIdleMs: number, ...chunkIds: string[]],
  { updated: number; pruned: number }
>({
  name: 'memory-decay-batch',
  keys: { min: 1 },
  source: `${HELPERS}
local now, hl = tonumber(ARGV[1]), tonumber(ARGV[2])
local below, idle = tonumber(ARGV[3]), tonumber(ARGV[4])
local updated, pruned = 0, 0
for i = 2, #KEYS do
  local chunk = ARGV[i + 3]
  local cur = redis.call('HMGET', KEYS[i], 'decayed_utility', 'utility_at', 'last_useful_at')
  if not cur[1] then
    pruned = pruned + redis.call('SREM', KEYS[1], chunk)
  else
    local u, since, last = tonumber(cur[1]), tonumber(cur[2]), tonumber(cur[3])
    local un = u * decay(now - since, hl)
    if un < below and now - last >= idle then
      redis.call('DEL', KEYS[i])
      redis.call('SREM', KEYS[1], chunk)
      pruned = pruned + 1
    elseif now > since then
      redis.call('HSET', KEYS[i], 'decayed_utility', fmt(un), 'utility_at', fmt(now))
      updated = updated + 1
    end
  end
end
return {updated, pruned}
`,
  reply: (raw) => {
    const [updated, pruned] = raw as [number, number];
    return { updated: Number(updated), pruned: Number(pruned) };
  },
});
