-- One request of one person, admitted or refused against the counts every instance shares. Redis
-- runs a script alone, so two instances never both take the last token or the last place.
-- KEYS[1]: the person's rate bucket (a hash: tokens, at); KEYS[2]: their running calls (a sorted
-- set of call ids, each scored by the time it is forgotten if its instance never frees it).
-- ARGV: requests a minute, 1 for a call (else 0), calls at once, how long a call's place is held
-- at most (ms), the call's id.
-- Answers {0, 0} admitted, {1, ms to wait} over the rate, {2, 0} over the calls at once.
-- Time is Redis's own, so the instances' clocks do not matter.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per_minute = tonumber(ARGV[1])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1])
local at = tonumber(saved[2])
if tokens == nil or at == nil then
  tokens = per_minute
  at = now
end
tokens = math.min(per_minute, tokens + math.max(0, now - at) * per_minute / 60000)
if tokens < 1 then
  return {1, math.ceil((1 - tokens) * 60000 / per_minute)}
end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%d', now))
-- Once full again the bucket is as good as absent.
redis.call('PEXPIRE', KEYS[1], math.ceil((per_minute - tokens) * 60000 / per_minute) + 1000)
if ARGV[2] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
    return {2, 0}
  end
  local hold = tonumber(ARGV[4])
  redis.call('ZADD', KEYS[2], now + hold, ARGV[5])
  redis.call('PEXPIRE', KEYS[2], hold)
end
return {0, 0}
