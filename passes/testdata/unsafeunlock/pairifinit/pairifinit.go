// A Lock/Unlock helper pair (constant value, bare DEL) whose caller
// keeps Lock's result in an if's init and releases after the if, in a
// block that assigns an outer err later: hoisting `err := Lock(k)` before
// the if would declare a new err there, and the later `err = ...` would
// no longer set the function's. The fix moves the call before the if
// with fresh names, and the init keeps its own: every name keeps its
// scope.
package pairifinit

import (
	"errors"
	"time"

	"github.com/go-redis/redis"
)

var errBusy = errors.New("busy")

type Cache struct {
	rdb *redis.Client
}

func (c *Cache) lock(key string, ttls ...time.Duration) error {
	ttl := 3 * time.Minute
	if len(ttls) > 0 {
		ttl = ttls[0]
	}
	ok, err := c.rdb.SetNX("lock:"+key, 1, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (c *Cache) unlock(key string) error {
	return c.rdb.Del("lock:" + key).Err() // want `Del of lock key "lock:" \+ key does not check the owner, and every holder writes 1: it can delete another holder's lock \(LV204\)$`
}

func redeem(string) (int, error) { return 0, nil }

// The outer err is assigned after the if, in the same block.
func (c *Cache) use(code string) (int, error) {
	var n int
	var err error
	if code != "" {
		if err := c.lock("coupon:" + code); err != nil {
			return 0, err
		}
		defer func() {
			if err := c.unlock("coupon:" + code); err != nil {
				println(err.Error())
			}
		}()
		n, err = redeem(code)
	}
	return n, err
}

// Hoisting is exact here (no err before): the plain hoist.
func (c *Cache) plain(code string) error {
	if err := c.lock("order:"+code, time.Second); err != nil {
		return err
	}
	defer c.unlock("order:" + code)
	return nil
}

// The release inside the if's scope: the token stays in the init.
func (c *Cache) inside(code string) {
	if err := c.lock("job:" + code); err == nil {
		defer c.unlock("job:" + code)
	}
}
