-- Record a finished game's rated result once, and mark it for folding into the ratings.
-- KEYS[1] the results hash, KEYS[2] the fold's order, KEYS[3] the results not folded yet;
-- KEYS[4] the game's rebuild marker, KEYS[5..7] the rebuild's fresh results, order and unfolded
-- ARGV[1] the game's id, ARGV[2] its result as JSON, ARGV[3] the time of its last event (ms)
-- While the marker is set (a rebuild runs), the result is recorded into the fresh keys too, so
-- that the rebuild's swap keeps it. Returns 1 if the result is new to KEYS[1], 0 if it was
-- recorded there before (and nothing changes there).
local function record(results, order, unfolded)
  if redis.call('HSETNX', results, ARGV[1], ARGV[2]) == 0 then
    return 0
  end
  redis.call('ZADD', order, ARGV[3], ARGV[1])
  redis.call('ZADD', unfolded, ARGV[3], ARGV[1])
  return 1
end
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  record(KEYS[5], KEYS[6], KEYS[7])
end
return record(KEYS[1], KEYS[2], KEYS[3])
