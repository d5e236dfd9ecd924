// Locks whose value is a part of their own key (SETNX "lock:acct:"+id
// with the value id): every holder of the key writes the same value, so
// comparing with it at the release checks no owner. The fix writes a
// random token instead: in one function a local variable, for a helper
// pair the lock helper returns it and the release helper takes it.
package keypart

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const acctPrefix = "lock:acct:"

type cache struct {
	rdb *redis.Client
}

func (c *cache) lockAccount(ctx context.Context, id string) error {
	ok, err := c.rdb.SetNX(ctx, acctPrefix+id, id, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("account %s is locked", id)
	}
	return nil
}

func (c *cache) unlockAccount(ctx context.Context, id string) error {
	return c.rdb.Del(ctx, acctPrefix+id).Err() // want `Del of lock key acctPrefix \+ id does not check the owner, and every holder writes id, a part of the key, which tells no holder from another: it can delete another holder's lock$`
}

func (c *cache) transfer(ctx context.Context, id string) error {
	if err := c.lockAccount(ctx, id); err != nil {
		return err
	}
	defer c.unlockAccount(ctx, id)
	return nil
}

// One function, the key formatted from the value.
func settle(ctx context.Context, rdb *redis.Client, order string) error {
	ok, err := rdb.SetNX(ctx, fmt.Sprintf("lock:order:%s", order), order, 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, fmt.Sprintf("lock:order:%s", order)) // want `Del of lock key fmt.Sprintf\("lock:order:%s", order\) does not check the owner, and every holder writes order, a part of the key`
	return nil
}

// --- near misses: the value is not built into the key ---

// The caller's owner, another parameter than the key's: it may be a
// token, and the release compares with it.
func (c *cache) lockFor(ctx context.Context, id, owner string) (bool, error) {
	return c.rdb.SetNX(ctx, "lock:job:"+id, owner, time.Minute).Result()
}

func (c *cache) unlockFor(ctx context.Context, id, owner string) error {
	return c.rdb.Del(ctx, "lock:job:"+id).Err() // want `Del of lock key "lock:job:" \+ id does not check the owner, so after the TTL it can delete another holder's lock; delete only while it holds the token$`
}
