// Lock libraries renew with an owner check: nothing to report.
package libs

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

func withRedsync(ctx context.Context, rdb *redis.Client, stop <-chan struct{}) error {
	rs := redsync.New(goredis.NewPool(rdb))
	m := rs.NewMutex("lock:report", redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return nil
		case <-t.C:
			if ok, err := m.ExtendContext(ctx); err != nil || !ok {
				return err
			}
		}
	}
}

func withRedislock(ctx context.Context, rdb *redis.Client, stop <-chan struct{}) error {
	locker := redislock.New(rdb)
	lock, err := locker.Obtain(ctx, "lock:report", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(3 * time.Second):
				if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
					return
				}
			}
		}
	}()
	<-stop
	return nil
}
