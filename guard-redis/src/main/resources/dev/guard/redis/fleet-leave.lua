-- A member leaves. KEYS: the registry (ARGV: id) or the instance's two keys.
if ARGV[1] then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('DEL', unpack(KEYS))
