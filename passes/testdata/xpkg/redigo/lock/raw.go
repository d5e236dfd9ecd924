package lock

import "github.com/gomodule/redigo/redis"

// TryLockRaw returns SET NX's reply as it is: nil, and a nil error, when
// key is held.
func TryLockRaw(c redis.Conn, key, val string, ttl int) (interface{}, error) { // want TryLockRaw:"acquire-funcs:key=1,value=2,ttl=3,unit=seconds"
	return c.Do("SET", key, val, "NX", "EX", ttl)
}

// TryLockCount returns SETNX's reply as it is: 0 when key is held. (Its
// TTL is set by the caller, if at all.)
func TryLockCount(c redis.Conn, key, val string) (interface{}, error) { // want TryLockCount:"acquire-funcs:key=1,value=2,ttl=none"
	return c.Do("SETNX", key, val)
}
