-- put-capped: KEYS, ARGV and reply are typed in capped-scripts.ts; shared/redis/lua.ts runs it.
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (tonumber(ARGV[3]) - tonumber(ARGV[2]) * 1000))
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
local evicted = 0
while excess > 0 do
  -- In slices: unpack() has a stack limit, and a lowered maximum may trim many at once.
  local n = math.min(excess, 500)
  local old = redis.call('ZRANGE', KEYS[2], 0, n - 1)
  for i = 1, #old do redis.call('DEL', ARGV[5] .. old[i]) end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, n - 1)
  excess = excess - n
  evicted = evicted + n
end
redis.call('EXPIRE', KEYS[2], ARGV[2])
return evicted
