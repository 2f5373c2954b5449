-- Stores a rule document if the key still holds what the writer last read, and publishes a
-- notice, in one atomic step. KEYS: the rule key (also the channel). ARGV: expectation ('absent'
-- or 'present'), the expected document, the new document, the notice. Returns 1 when stored, 0
-- when the key held something else.
local current = redis.call('GET', KEYS[1])
if ARGV[1] == 'absent' and current then return 0 end
if ARGV[1] == 'present' and current ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[1], ARGV[4])
return 1
