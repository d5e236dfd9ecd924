package v6

import (
	"time"

	"github.com/go-redis/redis"
)

var refresh = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// Bug: v6 sends SET … PX 0 and the acquire fails with an error.
func acquire(rdb *redis.Client, key, tok string) (bool, error) {
	return rdb.SetNX(key, tok, 30).Result() // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
}

// Bug: v6 sends EXPIRE key 0, which deletes the lock.
func renew(rdb *redis.Client, key string) {
	rdb.Expire(key, 30) // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so Expire sets the client's shortest TTL, or deletes the key; write 30 \* time\.Second or 30 \* time\.Millisecond`
}

// Bug: v6 cannot encode a time.Duration script argument.
func extend(rdb *redis.Client, key, tok string, ttl time.Duration) error {
	return refresh.Run(rdb, []string{key}, tok, ttl).Err() // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
}

// Bug: seconds as nanoseconds.
func fromEnv(rdb *redis.Client, key, tok string, secs int64) {
	rdb.SetNX(key, tok, time.Duration(secs)) // want `reads secs, a count of seconds, as nanoseconds`
}

// Bug: PEXPIRE with a negative number deletes.
func clear(rdb *redis.Client, key string) {
	rdb.PExpire(key, -1) // want `PExpire with a TTL of -1 deletes key at once`
}

// Silent.
func fine(rdb *redis.Client, key, tok string, ttl time.Duration) {
	rdb.SetNX(key, tok, 30*time.Second)
	rdb.Expire(key, ttl)
	refresh.Run(rdb, []string{key}, tok, int64(ttl/time.Millisecond))
}
