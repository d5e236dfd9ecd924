package tokengetset

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 10 * time.Second

// A machine id held as a lock: taken with SET NX and the instance's
// random id on a candidate key, held by a GETSET of that id that checks
// the value it replaced: the key holds the lock's token. The DEL on
// shutdown checks nothing.
type Allocator struct {
	rdb  *redis.Client
	ns   string
	id   uint
	uuid string
}

func (a *Allocator) candidateKey(id uint) string { return fmt.Sprintf("%s:id:%d", a.ns, id) }
func (a *Allocator) lockKey() string             { return fmt.Sprintf("%s:id:%d", a.ns, a.id) }

func (a *Allocator) Acquire(ctx context.Context, id uint) (bool, error) {
	ok, err := a.rdb.SetNX(ctx, a.candidateKey(id), a.uuid, lockTTL).Result()
	if err == nil && ok {
		a.id = id
	}
	return ok, err
}

func (a *Allocator) hold(ctx context.Context) error {
	old, err := a.rdb.GetSet(ctx, a.lockKey(), a.uuid).Result()
	if err != nil {
		return err
	}
	if old != a.uuid {
		return errors.New("lock lost")
	}
	return a.rdb.Expire(ctx, a.lockKey(), lockTTL).Err()
}

func (a *Allocator) Close(ctx context.Context) error {
	return a.rdb.Del(ctx, a.lockKey()).Err() // want `Del of lock key a\.lockKey\(\) does not check the owner`
}

// --- silent ---

// A cache swapped by GETSET, its old value compared with the new one:
// the value written is no acquire's token.
type Cache struct {
	rdb     *redis.Client
	name    string
	version string
}

func (c *Cache) key() string { return "cache:" + c.name }

func (c *Cache) Swap(ctx context.Context) bool {
	old := c.rdb.GetSet(ctx, c.key(), c.version).Val()
	return old != c.version
}

func (c *Cache) Drop(ctx context.Context) {
	c.rdb.Del(ctx, c.key())
}
