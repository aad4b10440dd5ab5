-- Make an imported game's staged events its stream, whole and at once.
-- KEYS[1] meta hash, KEYS[2] stream, KEYS[3] staged stream, KEYS[4] staged meta hash
-- ARGV[1] the version the staged events reach, ARGV[2] the game's status from now on.
if redis.call('HGET', KEYS[1], 'version') ~= '0' or redis.call('EXISTS', KEYS[2]) == 1 then
  return {'conflict'}
end
if redis.call('HGET', KEYS[4], 'version') ~= ARGV[1] then
  return {'incomplete'}
end
redis.call('RENAME', KEYS[3], KEYS[2])
redis.call('PERSIST', KEYS[2])
redis.call('DEL', KEYS[4])
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'status', ARGV[2])
return {'ok'}
