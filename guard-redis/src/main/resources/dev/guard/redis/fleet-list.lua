-- The fleet's members. KEYS: the registry. ARGV: now (ms) or empty for the server's clock, expiry
-- ms, most instances. Returns the time and the instances seen within the expiry, most recent
-- first, with their scores.
local now = ARGV[1]
if now == '' then
  now = tostring(math.floor(serverMicros() / 1000))
end
local since = tonumber(now) - tonumber(ARGV[2])
return {now, redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', since, 'WITHSCORES',
    'LIMIT', 0, tonumber(ARGV[3]))}
