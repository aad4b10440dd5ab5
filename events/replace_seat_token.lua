-- Give a seat a new token in place of its own: KEYS[1] the game's tokens hash (SHA-256 of a seat
-- token -> seat); ARGV[1] the SHA-256 of the token it has, ARGV[2] that of the new one, ARGV[3] the seat.
-- Returns 1, or 0 (and changes nothing) if the first is not that seat's token.
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[3] then
  return 0
end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1
