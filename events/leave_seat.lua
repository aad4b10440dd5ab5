-- Give up a seat of a game still waiting for players (a reserved seat stays reserved: the
-- reservations hash, KEYS[6], is left as it is).
-- KEYS[1] meta hash, KEYS[2] seats hash, KEYS[3] tokens hash, KEYS[4] bots hash, KEYS[5] players hash,
-- KEYS[7] notes hash (the seat's notes were its holder's: the next holder starts without them)
-- ARGV[1] seat
-- Returns {'ok', registered player id or ''} or {error reason}.
local meta = redis.call('HMGET', KEYS[1], 'status', 'seats')
if not meta[1] then
  return {'missing'}
end
if meta[1] == 'cancelled' then
  return {'cancelled'}
end
-- a full game is starting: its seats are fixed from the moment the last one is taken
if meta[1] ~= 'waiting' or redis.call('HLEN', KEYS[2]) >= tonumber(meta[2]) then
  return {'started'}
end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  return {'seat_free'}
end
local holder = redis.call('HGET', KEYS[5], ARGV[1]) or ''
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1], ARGV[1] .. ':budget')
redis.call('HDEL', KEYS[5], ARGV[1])
redis.call('HDEL', KEYS[1], 'device:' .. ARGV[1])
redis.call('HDEL', KEYS[7], ARGV[1])
local tokens = redis.call('HGETALL', KEYS[3])
for i = 1, #tokens, 2 do
  if tokens[i + 1] == ARGV[1] then
    redis.call('HDEL', KEYS[3], tokens[i])
  end
end
return {'ok', holder}
