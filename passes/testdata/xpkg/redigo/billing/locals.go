package billing

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

func Invoice(c redis.Conn, id string) error {
	key := "invoice:" + id
	if _, err := lock.LockJob(c, key); err != nil { // want `only the error of LockJob is checked`
		return err
	}
	return nil
}

// Read in full: silent.
func Void(c redis.Conn, id string) error {
	ok, err := lock.LockJob(c, "void:"+id)
	if err != nil || !ok {
		return err
	}
	return nil
}
