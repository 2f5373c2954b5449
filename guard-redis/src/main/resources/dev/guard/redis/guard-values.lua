-- The buckets of cluster per-value rules, atomically, on the server's clock (or the caller's).
-- KEYS: the flow id's values (a hash: value field -> its buckets) and their refill times (a sorted
-- set: value field -> when every bucket of the value is full again, ms). Both carry the flow id's
-- hash tag, so one call touches one slot.
-- A value's buckets are one string of numbers, three per bucket: size, last refill (ms), tokens.
-- Bucket 1 is the rule's own (its threshold plus burst per period), the others its quotas. A
-- bucket earns floor(elapsed * rate / period) tokens, up to its size, once more than a full period
-- has passed since its last refill (the engine's arithmetic); a value not stored has full buckets.
-- A value is dropped once all its buckets are full again (that changes no decision), and when a
-- new value does not fit in maxValues, the value whose buckets are full again first is dropped.
-- The keys expire when every value they hold is full again.
--
-- 'v' (ask). ARGV: op, value field, permits, maxValues, hint, then rate, period ms, size per
--   bucket. Returns {0, tokens left in bucket 1, state, lost} granted (every bucket took the
--   permits), {2, retry ms, state, lost} refused (no bucket changed; 0 ms: never, a bucket of rate
--   0 or smaller than the permits).
-- 'b' (give back). Same arguments. Returns {0, 0, state, lost}: the permits back in every bucket
--   of a stored value, up to its size.
-- state: the value's buckets as stored after the call ('' when full); lost: 1 when the hint was
-- used. The hint is the state the caller last got for this field, or empty: when the field is
-- absent although the hint's buckets are not full yet, the value's state was lost (Redis evicted
-- or flushed the keys, restarted or failed over) and the hint takes its place, so the caller's
-- last view, not full buckets, is what the call decides on.
-- The last argument is the caller's time in microseconds since the epoch, or empty for the
-- server's own clock.
local nowUs = tonumber(ARGV[#ARGV]) or serverMicros()
local now = math.floor(nowUs / 1000)
local values, refills = KEYS[1], KEYS[2]
local op, field = ARGV[1], ARGV[2]
local permits, maxValues, hint = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local n = math.floor((#ARGV - 6) / 3)
local rate, period, size = {}, {}, {}
for j = 1, n do
  rate[j] = tonumber(ARGV[3 + 3 * j])
  period[j] = tonumber(ARGV[4 + 3 * j])
  size[j] = tonumber(ARGV[5 + 3 * j])
end

local function earned(elapsed, j)
  local periods = math.floor(elapsed / period[j])
  if periods > math.floor(size[j] / rate[j]) then
    return size[j]
  end
  return periods * rate[j] + math.floor((elapsed % period[j]) * rate[j] / period[j])
end

-- buckets {refill, tokens} read from a state string, or nil when it is not one of this rule (a
-- hint must also be a state this rule could have stored by now)
local function parse(stored, checked)
  local numbers = {}
  for number in string.gmatch(stored, '%S+') do
    numbers[#numbers + 1] = tonumber(number)
  end
  if #numbers ~= 3 * n then
    return nil
  end
  local buckets = {}
  for j = 1, n do
    local refill, tokens = numbers[3 * j - 1], numbers[3 * j]
    if numbers[3 * j - 2] ~= size[j] then
      return nil
    end
    if checked and (refill == nil or tokens == nil or refill > now or tokens < 0
        or tokens > size[j] or tokens ~= math.floor(tokens) or refill ~= math.floor(refill)) then
      return nil
    end
    buckets[j] = {refill, tokens}
  end
  return buckets
end

-- the time all the buckets are full again (now when they are), and their state string
local function describe(buckets)
  local parts = {}
  local fullAt = now
  for j = 1, n do
    local refill, tokens = buckets[j][1], buckets[j][2]
    parts[#parts + 1] = string.format('%d %d %d', size[j], refill, tokens)
    if tokens < size[j] then
      local need = math.max(period[j] + 1, math.ceil((size[j] - tokens) * period[j] / rate[j]))
      fullAt = math.max(fullAt, refill + need)
    end
  end
  return fullAt, table.concat(parts, ' ')
end

-- the stored buckets of the value, or nil (full) when absent or of another rule; when absent,
-- the hint's if they are not full yet (then lost is 1)
local function load()
  local stored = redis.call('HGET', values, field)
  if stored then
    return parse(stored, false), 0
  end
  local hinted = parse(hint, true)
  if hinted and describe(hinted) > now then
    return hinted, 1
  end
  return nil, 0
end

local state = ''
-- stores the buckets with the time all of them are full again, and keeps the keys that long
local function store(buckets)
  local fullAt, text = describe(buckets)
  if fullAt <= now then
    redis.call('HDEL', values, field)
    redis.call('ZREM', refills, field)
    state = ''
    return
  end
  state = text
  redis.call('HSET', values, field, text)
  redis.call('ZADD', refills, fullAt, field)
  local keep = fullAt - now + 1
  for _, key in ipairs({values, refills}) do
    if redis.call('PTTL', key) < keep then
      redis.call('PEXPIRE', key, keep)
    end
  end
end

-- values full again leave (a few per call, the earliest first)
for _, full in ipairs(redis.call('ZRANGEBYSCORE', refills, '-inf', now, 'LIMIT', 0, 4)) do
  redis.call('HDEL', values, full)
  redis.call('ZREM', refills, full)
end

local buckets, lost = load()
if buckets then
  state = select(2, describe(buckets))
end
if op == 'b' then
  if buckets then
    for j = 1, n do
      buckets[j][2] = math.min(size[j], buckets[j][2] + permits)
    end
    store(buckets)
  end
  return {0, 0, state, lost}
end

local after = {}
local retry = 0
for j = 1, n do
  if rate[j] == 0 or permits > size[j] then
    return {2, 0, state, lost}
  end
  local refill, tokens = now, size[j]
  if buckets then
    refill, tokens = buckets[j][1], buckets[j][2]
  end
  local elapsed = now - refill
  local have = tokens
  if elapsed > period[j] then
    have = math.min(size[j], tokens + earned(elapsed, j))
  end
  if have < permits then
    local need = math.max(period[j] + 1, math.ceil((permits - tokens) * period[j] / rate[j]))
    retry = math.max(retry, math.max(1, refill + need - now))
  end
  if elapsed > period[j] then
    refill = now
  end
  after[j] = {refill, have - permits}
end
if retry > 0 then
  if lost == 1 then
    store(buckets) -- the state the hint restored, for the other instances
  end
  return {2, retry, state, lost}
end
if not buckets and redis.call('HEXISTS', values, field) == 0
    and redis.call('ZCARD', refills) >= maxValues then
  local evicted = redis.call('ZPOPMIN', refills)
  if evicted[1] then
    redis.call('HDEL', values, evicted[1])
  end
end
store(after)
return {0, after[1][2], state, lost}
