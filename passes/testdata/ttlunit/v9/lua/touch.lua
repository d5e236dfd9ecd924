-- Marks the job as seen; reads no TTL argument.
return redis.call("set", KEYS[1], ARGV[1])
