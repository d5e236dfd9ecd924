// A helper pair whose acquire writes a part of its own key (SETNX
// "lock:acct:"+id with the value id), released by a bare DEL and renewed
// by a bare EXPIRE in a third function: every holder of the key writes
// id, so a renewal that compared with id would check no owner, and once
// the pair's fix writes a random token it would never match again. The
// fix threads the token to the renewal as it does to the release: the
// same edits from LV201 (unsafeunlock/keypartrenew has this file) and
// LV203.
package keypartpair

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis"
)

const acctPrefix = "lock:acct:"

var errBusy = errors.New("account is locked")

type Cache struct {
	rdb *redis.Client
}

func (c *Cache) lockAccount(id string) error {
	ok, err := c.rdb.SetNX(acctPrefix+id, id, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (c *Cache) unlockAccount(id string) error {
	return c.rdb.Del(acctPrefix + id).Err()
}

// keepAccount extends the lock while ctx lives.
func (c *Cache) keepAccount(ctx context.Context, id string) {
	t := time.NewTicker(10 * time.Second)
	go func() {
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if err := c.rdb.Expire(acctPrefix+id, time.Minute).Err(); err != nil { // want `Expire renews lock acctPrefix \+ id in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script$`
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
}

func (c *Cache) Transfer(ctx context.Context, id string) error {
	if err := c.lockAccount(id); err != nil {
		return err
	}
	defer c.unlockAccount(id)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.keepAccount(ctx, id)
	return nil
}

// One function: the local token's plan renews with it too, not with
// order.
func settle(rdb *redis.Client, order string) error {
	ok, err := rdb.SetNX("lock:order:"+order, order, 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del("lock:order:" + order)
	for i := 0; i < 3; i++ {
		rdb.Expire("lock:order:"+order, 30*time.Second) // want `Expire renews lock "lock:order:" \+ order in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script$`
	}
	return nil
}

// --- no fix for the renewal, and the message says why ---

const jobPrefix = "lock:job:"

func (c *Cache) lockJob(id string) (bool, error) {
	return c.rdb.SetNX(jobPrefix+id, id, time.Minute).Result()
}

func (c *Cache) unlockJob(id string) {
	c.rdb.Del(jobPrefix + id)
}

func (c *Cache) keepJob(id string) {
	for range time.Tick(time.Second) {
		c.rdb.Expire(jobPrefix+id, time.Minute) // want `Expire renews lock jobPrefix \+ id in a loop without checking the token.*\(no fix: keepJob in Watch has no lockJob token in scope\)$`
	}
}

func (c *Cache) RunJob(id string) {
	ok, err := c.lockJob(id)
	if err != nil || !ok {
		return
	}
	defer c.unlockJob(id)
}

// Watch renews a job that another process may hold: no token of its
// own to renew with.
func (c *Cache) Watch(id string) {
	go c.keepJob(id)
}
