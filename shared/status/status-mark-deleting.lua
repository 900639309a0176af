-- status-mark-deleting: KEYS, ARGV and reply are typed in status-scripts.ts; shared/redis/lua.ts runs it.
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'state', 'gen')
if not cur[1] or cur[1] == 'deleted' then return -1 end
local gen = string.format('%d', tonumber(cur[2]) + tonumber(ARGV[2]))
redis.call('HSET', h, 'state', 'deleting', 'stage', 'delete', 'gen', gen, 'progress', 0, 'updated_at', ARGV[1])
return tonumber(gen)
