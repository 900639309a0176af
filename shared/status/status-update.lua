-- status-update: KEYS, ARGV and reply are typed in status-scripts.ts; shared/redis/lua.ts runs it.
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'version', 'gen', 'state', 'stage')
if cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] or cur[3] == 'deleting' or cur[3] == 'deleted' then return 0 end
if ARGV[4] ~= '' and (cur[4] ~= ARGV[4] or (cur[3] ~= 'queued' and cur[3] ~= 'running')) then return 0 end
for i = 5, #ARGV, 2 do redis.call('HSET', h, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', h, 'updated_at', ARGV[3])
return 1
