-- Cancel a game still waiting for players once its lobby time has passed.
-- KEYS[1] meta hash, KEYS[2] seats hash
-- ARGV[1] time (ms)
-- Returns 1 if the game was cancelled, 0 if it started, filled or has time left.
local meta = redis.call('HMGET', KEYS[1], 'status', 'seats', 'lobby_until')
if meta[1] ~= 'waiting' or not meta[3] then
  return 0
end
if tonumber(meta[3]) > tonumber(ARGV[1]) or redis.call('HLEN', KEYS[2]) >= tonumber(meta[2]) then
  return 0
end
redis.call('HSET', KEYS[1], 'status', 'cancelled')
return 1
