package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

const lockTTL = 30 * time.Second

var renewScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// A time.Duration after EX goes out as "30s": SET fails every time.
func acquireEX(c redis.Conn, key, token string, ttl time.Duration) (string, error) {
	return redis.String(c.Do("SET", key, token, "NX", "EX", ttl)) // want `TTL ttl is a time\.Duration where SET takes a whole number of seconds, and goes out as "30s" or nanoseconds; pass int64\(ttl / time\.Second\)`
}

// After PX: the fix passes its milliseconds.
func acquirePX(c redis.Conn, key, token string, ttl time.Duration) (string, error) {
	return redis.String(c.Do("SET", key, token, "PX", ttl, "NX")) // want `TTL ttl is a time.Duration where SET takes a whole number of milliseconds.*pass ttl.Milliseconds\(\)`
}

// EXPIRE with a constant duration: whole seconds, fixed.
func expire(c redis.Conn, key string) {
	c.Do("EXPIRE", key, 30*time.Second) // want `TTL 30 \* time\.Second is a time\.Duration where EXPIRE takes a whole number of seconds, and goes out as "30s" or nanoseconds; pass int64\(\(30 \* time\.Second\) / time\.Second\)`
}

// PEXPIRE with a named constant.
func pexpire(c redis.Conn, key string) {
	c.Do("PEXPIRE", key, lockTTL) // want `TTL lockTTL is a time.Duration where PEXPIRE`
}

// SETEX takes seconds too; a variable: no fix.
func setex(c redis.Conn, key, v string, ttl time.Duration) {
	c.Do("SETEX", key, ttl, v) // want `TTL ttl is a time.Duration where SETEX takes a whole number of seconds`
}

// Below 1ms, Milliseconds() would be 0: reported, no fix.
func tiny(c redis.Conn, key, token string) {
	c.Do("SET", key, token, "NX", "PX", 500*time.Microsecond) // want `TTL 500 \* time.Microsecond is a time.Duration where SET takes a whole number of milliseconds`
}

// EXPIRE with 0 deletes the key.
func expireZero(c redis.Conn, key string) {
	c.Do("EXPIRE", key, 0) // want `EXPIRE with a TTL of 0 deletes key at once`
}

// A point in time passed as a length of time.
func absolute(c redis.Conn, key string, ttl time.Duration) {
	c.Do("EXPIRE", key, time.Now().Add(ttl).Unix()) // want `TTL time.Now\(\).Add\(ttl\).Unix\(\) is computed from time.Now\(\).Add\(ttl\).Unix\(\), a point in time`
}

// A duration as a script argument the script uses with PEXPIRE.
func renew(c redis.Conn, key, token string, ttl time.Duration) (int, error) {
	return redis.Int(renewScript.Do(c, key, token, ttl)) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
}

// --- silent ---

func correct(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("SET", key, token, "NX", "PX", ttl.Milliseconds())
	c.Do("SET", key, token, "NX", "EX", 30)
	c.Do("SET", key, token, "NX", "EX", int64(ttl/time.Second))
	c.Do("EXPIRE", key, int(ttl.Seconds()))
	c.Do("PEXPIREAT", key, time.Now().Add(ttl).UnixMilli())
	c.Do("SET", key, token, "NX", "PXAT", time.Now().Add(ttl).UnixMilli())
	renewScript.Do(c, key, token, ttl.Milliseconds())
	c.Do("EVAL", `return redis.call("pexpire", KEYS[1], ARGV[1])`, 1, key, ttl.Milliseconds())
}

// A time.Duration converted to an integer is a count of nanoseconds.
func convertedNanos(c redis.Conn, key string, ttl time.Duration) {
	c.Do("PEXPIRE", key, int64(ttl)) // want `TTL int64\(ttl\) is a count of nanoseconds where PEXPIRE takes milliseconds \(30s becomes 30000000000\); divide first: ttl / time\.Millisecond`
}
