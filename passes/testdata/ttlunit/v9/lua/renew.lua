-- KEYS[1] the lock, ARGV[1] the token, ARGV[2] the TTL in milliseconds.
if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("pexpire", KEYS[1], ARGV[2])
end
return 0
