-- Keep a game's state at a version, unless the game is over: a finished game keeps the one
-- snapshot it had at its end (see keep_last_snapshot.lua), however far back it is read.
-- KEYS[1] meta hash, KEYS[2] snapshots hash
-- ARGV[1] version, ARGV[2] the state as JSON
-- Returns 1 if it was kept, 0 if not.
if redis.call('HGET', KEYS[1], 'status') == 'finished' then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
