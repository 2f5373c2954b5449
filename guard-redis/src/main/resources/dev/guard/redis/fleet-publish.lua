-- A fleet member's heartbeat. KEYS: the heartbeat hash, the seconds list. ARGV: now (ms) or empty
-- for the server's clock, expiry ms, seconds kept, heartbeat field count n, n field/value pairs,
-- then entries oldest first. An empty 'started' becomes the time stamped. Returns the time it
-- stamped.
local now = ARGV[1]
if now == '' then
  now = tostring(math.floor(serverMicros() / 1000))
end
local n = tonumber(ARGV[4])
redis.call('DEL', KEYS[1])
local i = 5
for j = 1, n do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  i = i + 2
end
redis.call('HSET', KEYS[1], 'seen', now)
if redis.call('HGET', KEYS[1], 'started') == '' then
  redis.call('HSET', KEYS[1], 'started', now)
end
for j = i, #ARGV do
  redis.call('LPUSH', KEYS[2], ARGV[j])
end
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return now
