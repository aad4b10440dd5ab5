-- Move a listed game from the listings of one status to those of another, in its shard's slot;
-- a game in no listing (an unlisted one) is left out of them. Which game it is (TAKI, Djambi…)
-- is told by which listing of every status holds it.
-- KEYS: for each game, its listed games of any status, of the old status and of the new one;
-- then every game's listed games of the old status, and of the new one.
-- ARGV[1] game id, ARGV[2] time (ms)
-- Returns 1 if the game is listed, 0 if not.
local every_old, every_new = KEYS[#KEYS - 1], KEYS[#KEYS]
for first = 1, #KEYS - 2, 3 do
  if redis.call('ZSCORE', KEYS[first], ARGV[1]) then
    redis.call('ZREM', KEYS[first + 1], ARGV[1])
    redis.call('ZREM', every_old, ARGV[1])
    redis.call('ZADD', KEYS[first + 2], 'NX', ARGV[2], ARGV[1])
    redis.call('ZADD', every_new, 'NX', ARGV[2], ARGV[1])
    return 1
  end
end
return 0
