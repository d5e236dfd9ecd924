package redigo

import "github.com/gomodule/redigo/redis"

var pool *redis.Pool

func fullKey(k string) string { return "app:" + k }

// SETNX, then EXPIRE with the TTL in seconds: the summary's TTL is the
// EXPIRE's, in its unit.
func AcquireLock(key, value string, ttl int) (interface{}, error) { // want `summary AcquireLock: acquire key=0 func:lockvet.test/summaries/redigo.fullKey\(\$\) value=1 ttl=2/seconds lock paired at redigo/redigo.go:15`
	key = fullKey(key)
	c := pool.Get()
	defer c.Close()
	res, err := c.Do("SETNX", key, value) // want `redigo acquire SETNX key=key value=value nottl`
	if err == nil && res == int64(1) {
		c.Do("EXPIRE", key, ttl) // want `redigo expire EXPIRE key=key ttl=ttl/seconds`
	}
	return res, err
}

func ReleaseLock(key string) error { // want `summary ReleaseLock: release bare key=0 func:lockvet.test/summaries/redigo.fullKey\(\$\) paired at redigo/redigo.go:26`
	key = fullKey(key)
	c := pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", key) // want `redigo delete DEL key=key`
	return err
}
