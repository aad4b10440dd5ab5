-- Seat a player: the seat a link's code opens, else the requested seat if free, else the seat
-- reserved for them, else the lowest free seat reserved for nobody. A reserved seat is taken by its
-- registered player only, a seat reserved by link ('link:' .. code) by a registered player sending
-- its code, once: the seat is then reserved for that player, and the code opens nothing more.
-- KEYS[1] meta hash, KEYS[2] seats hash, KEYS[3] tokens hash, KEYS[4] bots hash, KEYS[5] players hash,
-- KEYS[6] reservations hash
-- ARGV[1] seat ('' for any), ARGV[2] name, ARGV[3] token hash ('' for a bot), ARGV[4] bot level ('' for a person),
-- ARGV[5] registered player id ('' for none), ARGV[6] the bot's budget as JSON ('' for its level's own),
-- ARGV[7] a link's code ('' for none; sent with a player id only), ARGV[8] the SHA-256 of the player token
-- (the device's) that asks for the seat ('' for none), kept as the meta hash's 'device:<seat>'
-- Returns {'ok', seat, seats taken, seat count} or {error reason, seat if any}.
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
-- the seat reserved for this player, if any: free, since they hold no seat and nobody else may take it
local own
if ARGV[5] ~= '' then
  local reservations = redis.call('HGETALL', KEYS[6])
  for i = 1, #reservations, 2 do
    if reservations[i + 1] == ARGV[5] then
      own = tonumber(reservations[i])
    end
  end
end
local seat
if ARGV[7] ~= '' then
  local reservations = redis.call('HGETALL', KEYS[6])
  for i = 1, #reservations, 2 do
    if reservations[i + 1] == 'link:' .. ARGV[7] then
      seat = tonumber(reservations[i])
    end
  end
  if not seat or (ARGV[1] ~= '' and tonumber(ARGV[1]) ~= seat) then
    return {'invite_unknown'}
  end
  if own then
    return {'reserved_for_you', own}
  end
  redis.call('HSET', KEYS[6], seat, ARGV[5])
elseif ARGV[1] ~= '' then
  seat = tonumber(ARGV[1])
  if seat < 0 or seat >= total then
    return {'no_such_seat'}
  end
  if redis.call('HEXISTS', KEYS[2], seat) == 1 then
    return {'seat_taken'}
  end
  local invited = redis.call('HGET', KEYS[6], seat)
  if invited and invited ~= ARGV[5] then
    return {'seat_reserved', seat}
  end
  if own and own ~= seat then
    return {'reserved_for_you', own}
  end
elseif own then
  seat = own
else
  local reserved_free = false
  for candidate = 0, total - 1 do
    if redis.call('HEXISTS', KEYS[2], candidate) == 0 then
      if redis.call('HEXISTS', KEYS[6], candidate) == 0 then
        seat = candidate
        break
      end
      reserved_free = true
    end
  end
  if not seat then
    return {reserved_free and 'seats_reserved' or 'game_full'}
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
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'device:' .. seat, ARGV[8])
end
return {'ok', seat, redis.call('HLEN', KEYS[2]), total}
