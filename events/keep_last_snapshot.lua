-- Delete every snapshot of a game but its latest.
-- KEYS[1] snapshots hash
-- Returns how many were deleted.
local versions = redis.call('HKEYS', KEYS[1])
local last = -1
for _, version in ipairs(versions) do
  last = math.max(last, tonumber(version))
end
local deleted = 0
for _, version in ipairs(versions) do
  if tonumber(version) ~= last then
    deleted = deleted + redis.call('HDEL', KEYS[1], version)
  end
end
return deleted
