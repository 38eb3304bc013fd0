-- A key's request rate by GCRA (the generic cell rate algorithm): KEYS[1] holds the theoretical arrival time, in
-- microseconds of the Redis server's clock (every process reads the same clock). ARGV[1]: the emission interval in
-- microseconds (one request's weight, fractional for rates over a million a second); ARGV[2]: the burst; ARGV[3]:
-- the most cells wanted at once (a process may take a few ahead, see canvass-http's limits.rs).
-- Answers {cells granted (0: refused), cells left in the burst after them, microseconds until the burst is whole
-- again, microseconds until the next cell is free (0 when some were granted)}.
-- Numbers reach redis.call through string.format: Lua 5.1 writes a number with 14 significant digits, fewer than
-- an instant in microseconds has.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local wanted = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then
  tat = now
end
local available = math.floor((now - tat + burst * interval) / interval)
if available < 1 then
  return {0, 0, math.ceil(tat - now), math.ceil(tat - (burst - 1) * interval - now)}
end
local granted = math.min(wanted, available)
local next_tat = tat + granted * interval
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.max(1, math.ceil((next_tat - now) / 1000)))
return {granted, available - granted, math.ceil(next_tat - now), 0}
