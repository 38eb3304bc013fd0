-- Numbers reach redis.call through string.format: Lua 5.1 writes a number with 14 significant digits, fewer than
-- an instant in microseconds has.
-- How long a client must wait before it may try again, over several sliding windows of failures: each KEYS[i] a
-- sorted set of failure instants (microseconds of the Redis server's clock), with ARGV[2i-1] the failures allowed
-- within it (unless the window's companion key KEYS[i]..':allowed' holds the budget its last failure gave) and
-- ARGV[2i] the window in microseconds. Answers the longest wait in microseconds, 0 when none.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local longest = 0
for i, key in ipairs(KEYS) do
  local allowed = tonumber(redis.call('GET', key .. ':allowed')) or tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - window))
  local count = redis.call('ZCARD', key)
  if count > allowed then
    -- Blocked until enough failures have left the window to bring the count back to the allowed number.
    local freeing = redis.call('ZRANGE', key, count - allowed - 1, count - allowed - 1, 'WITHSCORES')
    local wait = tonumber(freeing[2]) + window - now
    if wait > longest then
      longest = wait
    end
  end
end
return longest
