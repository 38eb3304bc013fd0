-- Numbers reach redis.call through string.format: Lua 5.1 writes a number with 14 significant digits, fewer than
-- an instant in microseconds has.
-- Records one failure (or start) in the sliding window KEYS[1]: ARGV[1] the number allowed within it, ARGV[2] the
-- window in microseconds, ARGV[3] 1 to refuse (record nothing) when the window already holds more than allowed.
-- Only one past the allowed number is kept: all that is needed to block. The set, and the budget kept beside it,
-- expire with the window. Answers the wait in microseconds when refused, else 0.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local key = KEYS[1]
local allowed = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - window))
if ARGV[3] == '1' then
  local count = redis.call('ZCARD', key)
  if count > allowed then
    local freeing = redis.call('ZRANGE', key, count - allowed - 1, count - allowed - 1, 'WITHSCORES')
    return tonumber(freeing[2]) + window - now
  end
end
-- Members are distinct: two failures in the same microsecond are two.
local member = now
while redis.call('ZSCORE', key, string.format('%d', member)) do
  member = member + 1
end
redis.call('ZADD', key, string.format('%d', now), string.format('%d', member))
redis.call('ZREMRANGEBYRANK', key, 0, -(allowed + 2))
local milliseconds = math.max(1, math.ceil(window / 1000))
redis.call('PEXPIRE', key, milliseconds)
redis.call('SET', key .. ':allowed', tostring(allowed), 'PX', milliseconds)
return 0
