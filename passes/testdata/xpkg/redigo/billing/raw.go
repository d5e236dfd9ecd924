package billing

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

// Only the error of a helper that passes SET NX's reply through.
func PostRaw(c redis.Conn, id, tok string) error {
	if _, err := lock.TryLockRaw(c, "post:"+id, tok, 30); err != nil { // want `only the error of TryLockRaw is checked`
		return err
	}
	return nil
}

// --- silent ---

// The reply is read: nil is busy.
func PostChecked(c redis.Conn, id, tok string) error {
	reply, err := lock.TryLockRaw(c, "void:"+id, tok, 30)
	if err != nil {
		return err
	}
	if reply == nil {
		return nil
	}
	return nil
}

// Only the error of a helper that passes SETNX's reply through: 0 is
// busy.
func PostCount(c redis.Conn, id, tok string) error {
	if _, err := lock.TryLockCount(c, "count:"+id, tok); err != nil { // want `only the error of TryLockCount is checked`
		return err
	}
	return nil
}
