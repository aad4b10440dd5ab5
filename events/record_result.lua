-- Record a finished game's rated result once, and mark it for folding into the ratings.
-- KEYS[1] the results hash, KEYS[2] the fold's order, KEYS[3] the results not folded yet
-- ARGV[1] the game's id, ARGV[2] its result as JSON, ARGV[3] the time of its last event (ms)
-- Returns 1 if the result is new, 0 if it was recorded before (and nothing changes).
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
