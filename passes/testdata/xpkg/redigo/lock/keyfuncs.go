package lock

import "github.com/gomodule/redigo/redis"

func fullKey(k string) string { return "app:" + k }

// TakeKey normalises its key parameter once at the top, takes it with
// SETNX and gives it its TTL with EXPIRE (in seconds).
func TakeKey(c redis.Conn, key string, ttl int) (bool, error) { // want TakeKey:"acquire-funcs:key=1,ttl=2,unit=seconds"
	key = fullKey(key)
	ok, err := redis.Bool(c.Do("SETNX", key, "1"))
	if err != nil || !ok {
		return false, err
	}
	_, err = c.Do("EXPIRE", key, ttl)
	return err == nil, err
}

// DropKey deletes the key, whoever holds it; not paired here.
func DropKey(c redis.Conn, key string) error { // want DropKey:"release-funcs:key=1"
	key = fullKey(key)
	_, err := c.Do("DEL", key)
	return err
}
