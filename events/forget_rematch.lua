-- Forget a game's rematch that is gone (a rematch nobody joined, cancelled and then purged), so
-- that the game can be offered again.
-- KEYS[1] the finished game's meta hash
-- ARGV[1] the purged rematch's id
-- Returns 1 if the game named it, 0 if not.
if redis.call('HGET', KEYS[1], 'rematch') == ARGV[1] then
  return redis.call('HDEL', KEYS[1], 'rematch')
end
return 0
