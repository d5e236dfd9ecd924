package redigo

import "github.com/gomodule/redigo/redis"

func delKey(c redis.Conn, key string) error {
	_, err := c.Do("DEL", key)
	return err
}

// GET, compare, then a helper that deletes.
func releaseViaHelper(c redis.Conn, key, token string) error {
	v, err := redis.String(c.Do("GET", key))
	if err != nil || v != token {
		return err
	}
	return delKey(c, key) // want `delKey deletes key \(DEL\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step`
}

// --- silent ---

// A one-time code: not a lock.
func verifyViaHelper(c redis.Conn, phone, input string) bool {
	key := "sms:code:" + phone
	if v, _ := redis.String(c.Do("GET", key)); v != input {
		return false
	}
	return delKey(c, key) == nil
}
