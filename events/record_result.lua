-- Record a finished game's rated result once, and mark it for folding into the ratings.
-- KEYS[1] the game's current generation, KEYS[2] the generation a rebuild folds into (if one runs);
-- KEYS[3..5] the current generation's results hash, fold's order and results not folded yet,
-- KEYS[6..8] the same of the rebuild's generation, if one runs
-- ARGV[1] the game's id, ARGV[2] its result as JSON, ARGV[3] the time of its last event (ms),
-- ARGV[4] the current generation and ARGV[5] the rebuild's ("" if none), as the caller read them
-- While a rebuild runs, the result is recorded into its generation too, so that its swap keeps it.
-- Returns 1 if the result is new to the current generation, 0 if it was recorded there before,
-- -1 if a generation changed since the caller read them (nothing written: read them again).
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[4] or (redis.call('GET', KEYS[2]) or '') ~= ARGV[5] then
  return -1
end
local function record(results, order, unfolded)
  if redis.call('HSETNX', results, ARGV[1], ARGV[2]) == 0 then
    return 0
  end
  redis.call('ZADD', order, ARGV[3], ARGV[1])
  redis.call('ZADD', unfolded, ARGV[3], ARGV[1])
  return 1
end
if ARGV[5] ~= '' then
  record(KEYS[6], KEYS[7], KEYS[8])
end
return record(KEYS[3], KEYS[4], KEYS[5])
