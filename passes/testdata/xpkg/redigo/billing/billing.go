package billing

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

func Charge(c redis.Conn, id string) error {
	if _, err := lock.Lock(c, "bill:"+id, 60); err != nil { // want `only the error of Lock is checked`
		return err
	}
	return nil
}

func Refund(c redis.Conn, id string) error {
	ok, err := lock.Lock(c, "refund:"+id, 60)
	if err != nil || !ok {
		return err
	}
	return nil
}
