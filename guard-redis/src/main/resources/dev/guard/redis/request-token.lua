-- Decides one request for permits of a cluster flow rule, atomically, on the server's clock.
-- KEYS[1]: the flow id's window, a hash: field "<bucket index>" -> passes of that bucket
--          (the bucket after the current one holds permits taken ahead by prioritized requests),
--          field "g" -> the window's geometry "<bucketMs>:<buckets>" (a change starts afresh)
-- KEYS[2]: the flow id's live instances, a sorted set: instance id -> last request (server ms)
-- ARGV: count per second, per-instance (1/0), bucket ms, buckets, permits, prioritized (1/0),
--       instance id, instance expiry ms
-- Returns {0, remaining} OK, {1, waitMs} SHOULD_WAIT, {2, 0} BLOCKED.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local count = tonumber(ARGV[1])
local bucketMs = tonumber(ARGV[3])
local buckets = tonumber(ARGV[4])
local permits = tonumber(ARGV[5])
local expiry = tonumber(ARGV[8])

local instances = 1
if ARGV[2] == '1' then
  redis.call('ZADD', KEYS[2], now, ARGV[7])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - expiry)
  redis.call('PEXPIRE', KEYS[2], expiry * 2)
  instances = redis.call('ZCARD', KEYS[2])
end

local geometry = bucketMs .. ':' .. buckets
if redis.call('HGET', KEYS[1], 'g') ~= geometry then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'g', geometry)
end

local current = math.floor(now / bucketMs)
local first = current - buckets + 1
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  local b = tonumber(field)
  if b and b < first then
    redis.call('HDEL', KEYS[1], field)
  end
end

local fields = {}
for b = first, current + 1 do
  fields[#fields + 1] = string.format('%d', b)
end
local values = redis.call('HMGET', KEYS[1], unpack(fields))
local passed = 0
for i = 1, buckets do
  passed = passed + (tonumber(values[i]) or 0)
end
local sliding = tonumber(values[1]) or 0
local ahead = tonumber(values[buckets + 1]) or 0

local capacity = count * instances * buckets * bucketMs / 1000
local remaining = capacity - passed - permits
local ttl = bucketMs * (buckets + 2)
if remaining >= 0 then
  redis.call('HINCRBY', KEYS[1], fields[buckets], permits)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {0, math.floor(remaining)}
end
if ARGV[6] == '1' and passed - sliding + ahead + permits <= capacity then
  redis.call('HINCRBY', KEYS[1], fields[buckets + 1], permits)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {1, (current + 1) * bucketMs - now}
end
return {2, 0}
