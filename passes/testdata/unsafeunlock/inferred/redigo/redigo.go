// redigo helpers with no lock names: paired through a caller.
package redigo

import "github.com/gomodule/redigo/redis"

func take(c redis.Conn, key, token string) (bool, error) {
	r, err := c.Do("SET", key, token, "NX", "PX", 30000)
	return r != nil, err
}

func drop(c redis.Conn, key string) error {
	_, err := c.Do("DEL", key) // want `DEL of lock key key does not check the owner`
	return err
}

func job(c redis.Conn, id, token string) error {
	ok, err := take(c, "job:"+id, token)
	if err != nil || !ok {
		return err
	}
	return drop(c, "job:"+id)
}

// --- silent: an idempotency marker, never released ---

func markSeen(c redis.Conn, id string) (bool, error) {
	r, err := c.Do("SET", "seen:"+id, 1, "NX", "EX", 86400)
	return r != nil, err
}

func handle(c redis.Conn, id string) error {
	_, err := markSeen(c, id)
	return err
}
