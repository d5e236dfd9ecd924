-- Extends whatever holds the key.
return redis.call("PEXPIRE", KEYS[1], ARGV[1])
