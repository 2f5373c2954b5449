-- The instances that asked for a flow id within the expiry. KEYS: the flow id's instances.
-- ARGV: expiry ms, the caller's time in microseconds or empty for the server's clock.
local nowUs = tonumber(ARGV[2]) or serverMicros()
local now = math.floor(nowUs / 1000)
return redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[1]), '+inf')
