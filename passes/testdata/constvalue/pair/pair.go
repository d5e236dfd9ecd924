// Locks acquired with a constant in one helper and released by a bare DEL
// in its counterpart: the fix has the acquire helper make and return a
// token, the release helper take it, and every caller pass it on.
package pair

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// A bool result, called in an if condition and released by a defer.
func acquireLock(rdb *redis.Client, key string, ttl time.Duration) bool {
	return rdb.SetNX(ctx, key, "locked", ttl).Val() // want `lock key is acquired with the constant "locked" and released`
}

func releaseLock(rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

func comment(rdb *redis.Client, id string) error {
	key := "lock:comment:" + id
	if !acquireLock(rdb, key, 5*time.Second) {
		return errors.New("busy")
	}
	defer releaseLock(rdb, key)
	return nil
}

// A caller that never releases: it keeps no token.
func probe(rdb *redis.Client, id string) bool {
	ok := acquireLock(rdb, "lock:comment:"+id, time.Second)
	return ok
}

type cache struct{ rdb *redis.Client }

// Methods returning (bool, error) from the client's reply, and an
// error-only pair called in an if's init, released after the if.
func (c *cache) lockRefresh(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	key := fmt.Sprintf("refresh:lock:%s", id)
	return c.rdb.SetNX(ctx, key, 1, ttl).Result() // want `lock key is acquired with the constant 1 and released`
}

func (c *cache) unlockRefresh(ctx context.Context, id string) error {
	key := fmt.Sprintf("refresh:lock:%s", id)
	return c.rdb.Del(ctx, key).Err()
}

func (c *cache) refresh(ctx context.Context, id string) error {
	ok, err := c.lockRefresh(ctx, id, 30*time.Second)
	if err != nil || !ok {
		return err
	}
	defer func() { _ = c.unlockRefresh(ctx, id) }()
	return nil
}

func (c *cache) getCouponLock(coupon string, expiration time.Duration) error {
	key := fmt.Sprintf("coupon:%s", coupon)
	ret := c.rdb.SetNX(ctx, key, "", expiration) // want `lock key is acquired with the constant ""`
	if err := ret.Err(); err != nil {
		return err
	}
	if !ret.Val() {
		return errors.New("coupon locked")
	}
	return nil
}

func (c *cache) deleteCouponLock(coupon string) error {
	key := fmt.Sprintf("coupon:%s", coupon)
	return c.rdb.Del(ctx, key).Err()
}

func (c *cache) useCoupon(code string) error {
	if err := c.getCouponLock(code, time.Minute); err != nil {
		return err
	}
	n := len(code)
	if n == 0 {
		return errors.New("empty")
	}
	if err := c.deleteCouponLock(code); err != nil {
		return err
	}
	return nil
}

// A variadic release, and one caller that releases what it never
// acquired: no token can reach it.
func lockSerial(key string, rdb ...*redis.Client) error {
	if ok, err := rdb[0].SetNX(ctx, "serial:"+key, "1", time.Minute).Result(); err != nil || !ok { // want `lock "serial:" \+ key is acquired with the constant "1" .* \(no fix: unlockSerial in releaseAll has no lockSerial token in scope\)$`
		return errors.New("busy")
	}
	return nil
}

func unlockSerial(key string, rdb ...*redis.Client) error {
	return rdb[0].Del(ctx, "serial:"+key).Err()
}

func releaseAll(keys []string, rdb *redis.Client) {
	for _, k := range keys {
		_ = unlockSerial(k, rdb)
	}
}

// A pair that implements an interface: one package cannot see the
// interface's other implementations and callers, so under go vet (and
// here) the fix is withheld with a reason; the lockvet CLI's module view
// changes them all (cmd/lockvet TestFixPairOnlyItsPackage).
type Locker interface {
	TryLock(ctx context.Context, id string) (bool, error)
	Unlock(ctx context.Context, id string) error
}

type store struct{ rdb *redis.Client }

var _ Locker = (*store)(nil)

func (s *store) TryLock(ctx context.Context, id string) (bool, error) {
	return s.rdb.SetNX(ctx, "store:"+id, 1, time.Minute).Result() // want `\(no fix: TryLock implements Locker; make its TryLock return the token and its Unlock take it\)$`
}

func (s *store) Unlock(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, "store:"+id).Err()
}

// Exported helpers may have callers in other packages, which go vet
// does not see.
func AcquireJob(rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "job:"+id, 1, time.Minute).Val() // want `\(no fix: AcquireJob is exported and not every caller is loaded\)$`
}

func ReleaseJob(rdb *redis.Client, id string) {
	rdb.Del(ctx, "job:"+id)
}
