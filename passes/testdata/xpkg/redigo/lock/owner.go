package lock

import "github.com/gomodule/redigo/redis"

// ForgetIfMine deletes key while it holds token: a GET, a compare and a
// DEL in separate round trips. Its callers' packages are the evidence
// that key is a lock.
func ForgetIfMine(c redis.Conn, key, token string) error { // want ForgetIfMine:"release-funcs:key=1"
	v, err := redis.String(c.Do("GET", key))
	if err != nil || v != token {
		return err
	}
	_, err = c.Do("DEL", key)
	return err
}

// UseCode consumes a one-time code the same way.
func UseCode(c redis.Conn, key, code string) bool { // want UseCode:"release-funcs:key=1"
	if v, _ := redis.String(c.Do("GET", key)); v == code {
		c.Do("DEL", key)
		return true
	}
	return false
}
