-- Numbers reach redis.call through string.format: Lua 5.1 writes a number with 14 significant digits, fewer than
-- an instant in microseconds has.
-- A key's request rate by GCRA (the generic cell rate algorithm): KEYS[1] holds the theoretical arrival time, in
-- microseconds of the Redis server's clock (every process reads the same clock). ARGV[1]: the emission interval in
-- microseconds (one request's weight, fractional for rates over a million a second); ARGV[2]: the burst.
-- Answers {1 when let through else 0, requests left in the burst, microseconds until the burst is whole again,
-- microseconds until the next request is let through (0 when this one was)}.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then
  tat = now
end
local allow_at = tat - (burst - 1) * interval
if now < allow_at then
  return {0, 0, math.ceil(tat - now), math.ceil(allow_at - now)}
end
local next_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.max(1, math.ceil((next_tat - now) / 1000)))
local remaining = math.floor((now - (next_tat - burst * interval)) / interval)
return {1, remaining, math.ceil(next_tat - now), 0}
