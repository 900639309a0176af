-- release-if-held: KEYS, ARGV and reply are typed in held-key-scripts.ts; shared/redis/lua.ts runs it.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
