package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

// Keys built in a local variable inside the helpers.

func LockInvoice(c redis.Conn, id, token string) (bool, error) {
	key := "invoice:" + id
	r, err := c.Do("SET", key, token, "NX", "PX", 30000)
	return r != nil, err
}

func UnlockInvoice(c redis.Conn, id string) error {
	key := "invoice:" + id
	_, err := c.Do("DEL", key) // want `DEL of lock key key does not check the owner`
	return err
}

func claimTask(c redis.Conn, tenant, token string) (bool, error) {
	k := fmt.Sprintf("task:%s", tenant)
	r, err := redis.String(c.Do("SET", k, token, "NX", "EX", 30))
	return r == "OK", err
}

func finishTask(c redis.Conn, tenant string) {
	k := fmt.Sprintf("task:%s", tenant)
	c.Do("DEL", k) // want `DEL of lock key k does not check the owner`
}

func runTask(c redis.Conn, tenant, token string) error {
	ok, err := claimTask(c, tenant, token)
	if err != nil || !ok {
		return err
	}
	finishTask(c, tenant)
	return nil
}

// --- silent: a cache with local keys ---

func putProfile(c redis.Conn, id, v string) error {
	key := "profile:" + id
	_, err := c.Do("SET", key, v, "EX", 3600)
	return err
}

func dropProfile(c redis.Conn, id string) error {
	key := "profile:" + id
	_, err := c.Do("DEL", key)
	return err
}

func profile(c redis.Conn, id string) error {
	if err := putProfile(c, id, "x"); err != nil {
		return err
	}
	return dropProfile(c, id)
}

// --- silent: an idempotency marker with a local key ---

func markPaid(c redis.Conn, id string) (bool, error) {
	key := "paid:" + id
	r, err := c.Do("SET", key, 1, "NX", "EX", 86400)
	return r != nil, err
}

func pay(c redis.Conn, id string) error {
	_, err := markPaid(c, id)
	return err
}
