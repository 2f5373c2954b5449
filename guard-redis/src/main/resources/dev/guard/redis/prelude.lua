-- The prelude of every guard script (Scripts prepends it when it loads a script; Lua has no
-- include). serverMicros(): the server's clock, in microseconds since the epoch.
local function serverMicros()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end

