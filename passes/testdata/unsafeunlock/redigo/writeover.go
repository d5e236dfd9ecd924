package redigo

import "github.com/gomodule/redigo/redis"

// Released by overwriting the lock key with an empty value.
func withLockOverwrite(c redis.Conn, key, token string) error {
	reply, err := c.Do("SET", key, token, "NX", "PX", 30000)
	if err != nil {
		return err
	}
	if reply == nil {
		return errBusy
	}
	work()
	_, err = c.Do("SET", key, "") // want `SET overwrites lock key key with "" without checking the owner`
	return err
}

// --- silent ---

// SET … XX GET with the old value compared: the owner is checked.
func swapChecked(c redis.Conn, key, token string) error {
	reply, err := c.Do("SET", key, token, "NX", "PX", 30000)
	if err != nil || reply == nil {
		return err
	}
	work()
	old, err := redis.String(c.Do("SET", key, "done", "XX", "GET", "PX", 1000))
	if err == nil && old != token {
		return errBusy
	}
	return err
}
