// Package settle releases locks through a GET-compare-DEL helper of the
// lock package: LV202 at the call, naming the helper and its DEL.
package settle

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/lock"
)

func Settle(c redis.Conn, id, token string) error {
	key := "settle:" + id
	ok, err := lock.Lock(c, key, 60)
	if err != nil || !ok {
		return err
	}
	defer lock.ForgetIfMine(c, key, token) // want `ForgetIfMine deletes lock key key \(DEL at lock/owner\.go:13\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step inside it`
	return nil
}

// --- silent ---

// A one-time code: nothing acquired the key.
func Verify(c redis.Conn, user, code string) bool {
	return lock.UseCode(c, "otp:"+user, code)
}

// The helper deletes another key than the one locked.
func Other(c redis.Conn, id, token string) error {
	ok, err := lock.Lock(c, "a:"+id, 60)
	if err != nil || !ok {
		return err
	}
	return lock.ForgetIfMine(c, "b:"+id, token)
}
