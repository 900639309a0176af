-- status-register: KEYS, ARGV and reply are typed in status-scripts.ts; shared/redis/lua.ts runs it.
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
