-- Every decision of the Redis token service, atomically, on the server's clock (or the caller's).
-- ARGV[1] is the operation, ARGV[2] the namespace's request limit per second (0: none). When the
-- limit is set, the last key is the namespace's request counter: a hash, field "<100 ms bucket
-- index>" -> requests answered in that bucket; the last 10 buckets must hold fewer than the limit.
--
-- 't' (permits of a QPS rule). KEYS: the flow id's windows, its instances[, the request counter].
--   windows: a hash with one window per geometry "<bucketMs>:<buckets>" that the flow id's rules
--   use (the rolling-deploy rule: instances with different rule versions never reset each
--   other's window): field "v:<geometry>" -> the last request of that geometry (ms), field
--   "<geometry>:<bucket index>" -> passes counted in that bucket (the bucket after the current one
--   holds permits taken ahead by prioritized requests). Every grant is counted in every live
--   geometry's window; a request is decided on its own geometry's window against its own
--   capacity. A geometry that appears is seeded with the most passes another live window holds
--   for its span, in its current bucket; one no request used for its window length is dropped
--   with its buckets.
--   instances: a sorted set, instance id -> last request (ms), written by every request, counted
--   for a per-instance threshold.
--   ARGV: op, limit, count per second, per-instance (1/0), bucket ms, buckets, permits,
--   prioritized (1/0), instance id, instance expiry ms, wanted (>= permits: the lease asked for)
--   Returns {0, remaining, granted, microseconds left in the bucket, counted at ms} OK,
--   {1, waitMs, counted at ms} SHOULD_WAIT, {2, 0} REFUSED, {3, 0} TOO_MANY_REQUESTS.
-- 'g' (give back permits of a grant). KEYS: the flow id's windows. ARGV: op, 0, permits, counted
--   at ms. Takes the permits out of the bucket holding that time in every live window (a bucket
--   that left its window is not counted any more). Returns {0}.
-- 'a' (a concurrency token). KEYS: the flow id's held tokens, its instances[, the request counter].
--   held: a sorted set, "<instance>:<token>:<permits>" -> expiry (ms), trimmed here.
--   ARGV: op, limit, count, per-instance (1/0), member, permits, lease ms, instance id,
--   instance expiry ms. Returns {0} OK, {2} REFUSED, {3} TOO_MANY_REQUESTS.
-- 'l' (count a request only, for Redis Cluster where the counter lives on another node).
--   KEYS: the request counter. ARGV: op, limit. Returns {0} counted, {3} TOO_MANY_REQUESTS.
-- Every operation's last argument is the caller's time in microseconds since the epoch, or empty
-- for the server's own clock (the default: instance clocks may then disagree).
local nowUs = tonumber(ARGV[#ARGV]) or serverMicros()
local now = math.floor(nowUs / 1000)
local op = ARGV[1]
local limit = tonumber(ARGV[2])

local function overLimit(key)
  local current = math.floor(now / 100)
  local fields = {}
  for b = current - 9, current do
    fields[#fields + 1] = string.format('%d', b)
  end
  local counted = 0
  for _, v in ipairs(redis.call('HMGET', key, unpack(fields))) do
    counted = counted + (tonumber(v) or 0)
  end
  if counted + 1 > limit then
    return true
  end
  redis.call('HINCRBY', key, fields[10], 1)
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if tonumber(field) < current - 9 then
      redis.call('HDEL', key, field)
    end
  end
  redis.call('PEXPIRE', key, 2000)
  return false
end

if limit > 0 and overLimit(KEYS[#KEYS]) then
  return {3, 0}
end
if op == 'l' then
  return {0, 0}
end

-- Every request registers its instance (so that operators can see who shares a flow id); only a
-- per-instance threshold multiplies by the count.
local function liveInstances(perInstance, key, id, expiry)
  redis.call('ZADD', key, now, id)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - expiry)
  redis.call('PEXPIRE', key, expiry * 2)
  if perInstance ~= '1' then
    return 1
  end
  return redis.call('ZCARD', key)
end

if op == 'a' then
  local instances = liveInstances(ARGV[4], KEYS[2], ARGV[8], tonumber(ARGV[9]))
  local threshold = tonumber(ARGV[3]) * instances
  local permits = tonumber(ARGV[6])
  local leaseMs = tonumber(ARGV[7])
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local held = 0
  for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    held = held + tonumber(string.match(member, ':(%d+)$'))
  end
  if held + permits > threshold then
    return {2}
  end
  redis.call('ZADD', KEYS[1], now + leaseMs, ARGV[5])
  if redis.call('PTTL', KEYS[1]) < leaseMs then
    redis.call('PEXPIRE', KEYS[1], leaseMs)
  end
  return {0}
end

-- The live geometries of a flow id's windows ({bucketMs, buckets} by "<bucketMs>:<buckets>"),
-- after dropping stale geometries and buckets that left their window; and the longest life a
-- live window needs (ms).
local function liveWindows(key)
  local all = redis.call('HGETALL', key)
  local live = {}
  local stale = {}
  local ttl = 0
  for i = 1, #all, 2 do
    local g = string.match(all[i], '^v:(.+)$')
    if g then
      local bm, n = string.match(g, '^(%d+):(%d+)$')
      bm = tonumber(bm)
      n = tonumber(n)
      if now - tonumber(all[i + 1]) > bm * n then
        stale[#stale + 1] = all[i]
      else
        live[g] = {bm, n}
        ttl = math.max(ttl, bm * (n + 2))
      end
    end
  end
  for i = 1, #all, 2 do
    local g, b = string.match(all[i], '^(%d+:%d+):(%-?%d+)$')
    if g then
      local geo = live[g]
      if geo == nil or tonumber(b) < math.floor(now / geo[1]) - geo[2] + 1 then
        stale[#stale + 1] = all[i]
      end
    end
  end
  for i = 1, #stale, 1000 do
    redis.call('HDEL', key, unpack(stale, i, math.min(i + 999, #stale)))
  end
  return live, ttl
end

local function bucketField(g, geo, atMs)
  return g .. ':' .. string.format('%d', math.floor(atMs / geo[1]))
end

if op == 'g' then
  local live = liveWindows(KEYS[1])
  local permits = tonumber(ARGV[3])
  local atMs = tonumber(ARGV[4])
  for g, geo in pairs(live) do
    local field = bucketField(g, geo, atMs)
    if atMs >= (math.floor(now / geo[1]) - geo[2] + 1) * geo[1] then
      local held = tonumber(redis.call('HGET', KEYS[1], field))
      if held then
        if held <= permits then
          redis.call('HDEL', KEYS[1], field)
        else
          redis.call('HINCRBY', KEYS[1], field, -permits)
        end
      end
    end
  end
  return {0}
end

local count = tonumber(ARGV[3])
local bucketMs = tonumber(ARGV[5])
local buckets = tonumber(ARGV[6])
local permits = tonumber(ARGV[7])
local wanted = tonumber(ARGV[11])
local instances = liveInstances(ARGV[4], KEYS[2], ARGV[9], tonumber(ARGV[10]))

local geometry = bucketMs .. ':' .. buckets
local appeared = redis.call('HSET', KEYS[1], 'v:' .. geometry, string.format('%d', now)) == 1
local live, ttl = liveWindows(KEYS[1])

local current = math.floor(now / bucketMs)
local first = current - buckets + 1

-- A geometry that appears starts with what the other windows hold for its span (the most any of
-- them counted), in its current bucket: it leaves later than it would have, never earlier.
if appeared then
  local seed = 0
  for g, geo in pairs(live) do
    if g ~= geometry then
      local held = 0
      for b = math.floor(first * bucketMs / geo[1]), math.floor(now / geo[1]) do
        local field = g .. ':' .. string.format('%d', b)
        held = held + (tonumber(redis.call('HGET', KEYS[1], field)) or 0)
      end
      seed = math.max(seed, held)
    end
  end
  if seed > 0 then
    redis.call('HINCRBY', KEYS[1], geometry .. ':' .. string.format('%d', current), seed)
  end
end
local fields = {}
for b = first, current + 1 do
  fields[#fields + 1] = geometry .. ':' .. string.format('%d', b)
end
local values = redis.call('HMGET', KEYS[1], unpack(fields))
local passed = 0
for i = 1, buckets do
  passed = passed + (tonumber(values[i]) or 0)
end
local sliding = tonumber(values[1]) or 0
local ahead = tonumber(values[buckets + 1]) or 0

-- counts permits at a time in every live window
local function countAll(atMs, n)
  for g, geo in pairs(live) do
    redis.call('HINCRBY', KEYS[1], bucketField(g, geo, atMs), n)
  end
  redis.call('PEXPIRE', KEYS[1], ttl)
end

local capacity = count * instances * buckets * bucketMs / 1000
local granted = math.min(wanted, math.floor(capacity - passed))
if granted >= permits then
  countAll(now, granted)
  return {0, math.floor(capacity - passed - granted), granted,
    (current + 1) * bucketMs * 1000 - nowUs, now}
end
if ARGV[8] == '1' and passed - sliding + ahead + permits <= capacity then
  countAll((current + 1) * bucketMs, permits)
  return {1, (current + 1) * bucketMs - now, (current + 1) * bucketMs}
end
redis.call('PEXPIRE', KEYS[1], ttl)
return {2, 0}
