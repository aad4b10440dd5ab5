-- Count one more in a rate limit's window (KEYS[1]) unless it holds ARGV[1] already, the window
-- lapsing ARGV[2] seconds after its first: {1, the count after} if counted, {0, the count} if not.
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then
  return {0, count}
end
count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return {1, count}
