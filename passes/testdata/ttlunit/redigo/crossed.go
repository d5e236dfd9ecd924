package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

// A count of milliseconds given to EX, seconds given to PX, fractional
// seconds given to EX.
func msToEX(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("SET", key, token, "NX", "EX", int(ttl/time.Millisecond)) // want `TTL int\(ttl / time\.Millisecond\) is a count of milliseconds where SET takes seconds: the key lives 1000 times longer; pass int64\(ttl / time\.Second\)`
}

func secondsToPX(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("SET", key, token, "NX", "PX", int64(ttl.Seconds())) // want `TTL int64\(ttl\.Seconds\(\)\) is a count of seconds where SET takes milliseconds: the key lives a thousandth as long; pass ttl\.Milliseconds\(\)`
}

func floatToEX(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("SET", key, token, "NX", "EX", ttl.Seconds()) // want `TTL ttl\.Seconds\(\) is a float64 of seconds where SET takes whole seconds, and Redis rejects a fraction; pass int64\(ttl / time\.Second\)`
}

func msToExpire(c redis.Conn, key string, ttl time.Duration) {
	c.Do("EXPIRE", key, ttl.Milliseconds()) // want `TTL ttl\.Milliseconds\(\) is a count of milliseconds where EXPIRE takes seconds: the key lives 1000 times longer; pass int64\(ttl / time\.Second\) \(no fix: no EX or PX option word to change here\)$`
}

// The word keeps its case; a word held in a constant is not changed.
func lowerWord(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("set", key, token, "nx", "ex", ttl.Milliseconds()) // want `the key lives 1000 times longer; pass int64\(ttl / time\.Second\), or use px$`
}

const exWord = "EX"

func constWord(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("SET", key, token, "NX", exWord, ttl.Milliseconds()) // want `\(no fix: no EX or PX option word to change here\)$`
}

// --- silent: the units agree ---

func agree(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("SET", key, token, "NX", "EX", int(ttl/time.Second))
	c.Do("SET", key, token, "NX", "EX", int64(ttl.Seconds()))
	c.Do("SET", key, token, "NX", "PX", ttl.Milliseconds())
	c.Do("SET", key, token, "NX", "PX", int64(ttl/time.Millisecond))
	c.Do("PEXPIRE", key, ttl.Milliseconds())
}
