-- memory-decay-batch: KEYS, ARGV and reply are typed in memory-scripts.ts; shared/redis/lua.ts runs it.
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
