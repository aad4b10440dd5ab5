-- Append a message to a room of a game's chat unless the room holds as many as it may: the count
-- and the append are one step, so that writers at once never take a room past its bound.
-- KEYS[1] the room's stream
-- ARGV[1] the messages the room may hold; ARGV[2..] the message's fields and values
-- Returns the new entry's id, or false when the room is full.
if redis.call('XLEN', KEYS[1]) >= tonumber(ARGV[1]) then
  return false
end
return redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
