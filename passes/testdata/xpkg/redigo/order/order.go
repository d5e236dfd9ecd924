package order

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

func Process(c redis.Conn, id string) error {
	ok, err := lock.Lock(c, "order:"+id, 10)
	if err != nil || !ok {
		return err
	}
	defer lock.Forget(c, "order:"+id) // want `Forget deletes lock key "order:" \+ id with a bare DEL \(lock/lock.go:\d+\) after Lock acquired it`
	return nil
}

// Paired in the helper package: reported there.
func Cancel(c redis.Conn, id string) error {
	ok, err := lock.Lock(c, "order:"+id, 10)
	if err != nil || !ok {
		return err
	}
	return lock.Unlock(c, "order:"+id)
}

func Show(c redis.Conn, id string) (string, error) {
	return lock.Cached(c, "order:"+id)
}
