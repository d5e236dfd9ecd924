package order

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

func Bill(c redis.Conn, id string) error {
	ok, err := lock.TakeKey(c, "bill:"+id, 30)
	if err != nil || !ok {
		return err
	}
	defer lock.DropKey(c, "bill:"+id) // want `DropKey deletes lock key "bill:" \+ id with a bare DEL`
	return nil
}

// --- silent: another key ---
func Receipt(c redis.Conn, id string) error {
	ok, err := lock.TakeKey(c, "bill:"+id, 30)
	if err != nil || !ok {
		return err
	}
	return lock.DropKey(c, "receipt:"+id)
}
