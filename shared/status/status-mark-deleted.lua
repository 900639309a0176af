-- status-mark-deleted: KEYS, ARGV and reply are typed in status-scripts.ts; shared/redis/lua.ts runs it.
local h = KEYS[1]
if redis.call('HGET', h, 'gen') ~= ARGV[1] or redis.call('HGET', h, 'state') ~= 'deleting' then return 0 end
redis.call('HSET', h, 'state', 'deleted', 'progress', 100, 'updated_at', ARGV[2])
return 1
