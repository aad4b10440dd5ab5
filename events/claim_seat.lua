-- Seat a player: the requested seat if free, else the lowest free one.
-- KEYS[1] meta hash, KEYS[2] seats hash, KEYS[3] tokens hash, KEYS[4] bots hash, KEYS[5] players hash
-- ARGV[1] seat ('' for any), ARGV[2] name, ARGV[3] token hash ('' for a bot), ARGV[4] bot level ('' for a person),
-- ARGV[5] registered player id ('' for none), ARGV[6] the bot's budget as JSON ('' for its level's own)
-- Returns {'ok', seat, seats taken, seat count} or {error reason}.
local total = redis.call('HGET', KEYS[1], 'seats')
if not total then
  return {'missing'}
end
total = tonumber(total)
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'cancelled' then
  return {'cancelled'}
end
if status ~= 'waiting' then
  return {'started'}
end
if ARGV[5] ~= '' then
  for _, holder in ipairs(redis.call('HVALS', KEYS[5])) do
    if holder == ARGV[5] then
      return {'already_seated'}
    end
  end
end
local seat
if ARGV[1] ~= '' then
  seat = tonumber(ARGV[1])
  if seat < 0 or seat >= total then
    return {'no_such_seat'}
  end
  if redis.call('HEXISTS', KEYS[2], seat) == 1 then
    return {'seat_taken'}
  end
else
  for candidate = 0, total - 1 do
    if redis.call('HEXISTS', KEYS[2], candidate) == 0 then
      seat = candidate
      break
    end
  end
  if not seat then
    return {'game_full'}
  end
end
redis.call('HSET', KEYS[2], seat, ARGV[2])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[4], seat, ARGV[4])
  if ARGV[6] ~= '' then
    redis.call('HSET', KEYS[4], seat .. ':budget', ARGV[6])
  end
else
  redis.call('HSET', KEYS[3], ARGV[3], seat)
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[5], seat, ARGV[5])
end
return {'ok', seat, redis.call('HLEN', KEYS[2]), total}
