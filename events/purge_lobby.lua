-- Delete a cancelled game's own keys: its record, seats, tokens, reservations and markers.
-- KEYS[1] meta hash, then every other key of the game to delete
-- Returns 1 if the game was deleted, 0 if it is not cancelled (or already gone).
if redis.call('HGET', KEYS[1], 'status') ~= 'cancelled' then
  return 0
end
for _, key in ipairs(KEYS) do
  redis.call('DEL', key)
end
return 1
