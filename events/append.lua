-- Append events to one game's stream, atomically and only at the expected version.
-- KEYS[1] meta hash, KEYS[2] stream, KEYS[3] idempotency key
-- ARGV[1] expected version, ARGV[2] idempotency fingerprint ('' for none),
-- ARGV[3] idempotency ttl seconds, ARGV[4] new status ('' keeps it), ARGV[5] time (ms),
-- ARGV[6] command id, ARGV[7] actor, ARGV[8] the command whose event is the expected version's
-- ('' for no check), then type, schema version, payload for each event; a type of '' marks the
-- events after it as caused by another command: its command id and actor stand in the other two;
-- a type of '@' gives the events after it the time that stands next (an import keeps its log's);
-- a type of '!' gives the next event alone the cause that stands next: the command that caused
-- its run, or the game's own (what a log decides again).
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
  return {'missing'}
end
version = tonumber(version)
if ARGV[2] ~= '' then
  local previous = redis.call('GET', KEYS[3])
  if previous then
    return {'duplicate', previous}
  end
end
if tonumber(ARGV[1]) ~= version then
  return {'conflict', tostring(version)}
end
if ARGV[8] ~= '' then
  -- decided on a state the caller held without reading the game again: it must still be the
  -- game's, in play, and folded from the event now at that version (not one a failover took back)
  local last = redis.call('XRANGE', KEYS[2], version .. '-0', version .. '-0')
  local fields = last[1] and last[1][2] or {}
  local command = nil
  for i = 1, #fields, 2 do
    if fields[i] == 'c' then
      command = fields[i + 1]
    end
  end
  if command ~= ARGV[8] or redis.call('HGET', KEYS[1], 'status') ~= 'active' then
    return {'conflict', tostring(version)}
  end
end
local first = version + 1
local command, actor, at, cause = ARGV[6], ARGV[7], ARGV[5], nil
for i = 9, #ARGV, 3 do
  if ARGV[i] == '' then
    command, actor = ARGV[i + 1], ARGV[i + 2]
  elseif ARGV[i] == '@' then
    at = ARGV[i + 1]
  elseif ARGV[i] == '!' then
    cause = ARGV[i + 1]
  elseif cause then  -- written apart from the common case below, which stays free of a table per event
    version = version + 1
    redis.call('XADD', KEYS[2], version .. '-0',
      't', ARGV[i], 's', ARGV[i + 1], 'p', ARGV[i + 2], 'c', command, 'a', actor, 'at', at, 'k', cause)
    cause = nil
  else
    version = version + 1
    redis.call('XADD', KEYS[2], version .. '-0',
      't', ARGV[i], 's', ARGV[i + 1], 'p', ARGV[i + 2], 'c', command, 'a', actor, 'at', at)
  end
end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'version', version, 'status', ARGV[4])
else
  redis.call('HSET', KEYS[1], 'version', version)
end
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[3], ARGV[2] .. '|' .. first .. '|' .. version, 'EX', tonumber(ARGV[3]))
end
return {'ok', tostring(version)}
