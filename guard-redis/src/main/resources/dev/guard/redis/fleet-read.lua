-- One member's heartbeat. KEYS: the heartbeat hash, the seconds list. ARGV: longest field,
-- longest entry, entries, then the fields. A value or an entry over its bound comes back empty
-- (the reader skips it), so an oversized one never crosses the network.
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
local values = redis.call('HMGET', KEYS[1], unpack(fields))
local longest = tonumber(ARGV[1])
for i = 1, #values do
  if values[i] and #values[i] > longest then values[i] = '' end
end
local entries = redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[3]) - 1)
local largest = tonumber(ARGV[2])
for i = 1, #entries do
  if #entries[i] > largest then entries[i] = '' end
end
return {values, entries}
