package redigo

import (
	"github.com/gomodule/redigo/redis"
)

func batchKey(id string) string { return "batch:" + id }

// --- reported ---

// The key function, which names no lock, is called again for the
// release: the same key, in the function that took the lock.
func runBatch(c redis.Conn, id, token string) error {
	reply, err := c.Do("SET", batchKey(id), token, "NX", "PX", 30000)
	if err != nil || reply == nil {
		return err
	}
	defer c.Do("DEL", batchKey(id)) // want `DEL of lock key batchKey\(id\) does not check the owner`
	return nil
}

// --- silent ---

// Released with the owner check.
func runBatchSafely(c redis.Conn, id, token string) error {
	reply, err := c.Do("SET", batchKey(id), token, "NX", "PX", 30000)
	if err != nil || reply == nil {
		return err
	}
	defer unlock.Do(c, batchKey(id), token)
	return nil
}
