-- memory-apply-outcome: KEYS, ARGV and reply are typed in memory-scripts.ts; shared/redis/lua.ts runs it.
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
