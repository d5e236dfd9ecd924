package order

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

func Ship(c redis.Conn, id string) error {
	ok, err := lock.LockJob(c, id)
	if err != nil || !ok {
		return err
	}
	defer lock.ForgetJob(c, id) // want `ForgetJob deletes lock key id with a bare DEL \(lock/locals\.go:19\) after LockJob acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

func Pack(c redis.Conn, id string) error {
	key := "pack:" + id
	ok, err := lock.Lock(c, key, 60)
	if err != nil || !ok {
		return err
	}
	defer lock.Forget(c, key) // want `Forget deletes lock key key with a bare DEL`
	return nil
}

// --- silent: two locals, two keys ---
func Label(c redis.Conn, id string) error {
	held, printed := "label:"+id, "printed:"+id
	ok, err := lock.Lock(c, held, 60)
	if err != nil || !ok {
		return err
	}
	return lock.Forget(c, printed)
}
