// Helper pairs one level up that cannot be threaded keep the reason and
// get no fix (go-redis v9): the outer acquire called twice before the
// release (which call's token would the release take?).
package twice

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type repo struct{ rdb *redis.Client }

func (c *repo) acquireLock(ctx context.Context, code string) (bool, error) {
	return c.rdb.SetNX(ctx, "job:lock:"+code, 1, time.Minute).Result()
}

func (c *repo) releaseLock(ctx context.Context, code string) error {
	return c.rdb.Del(ctx, "job:lock:"+code).Err() // want `Del of lock key "job:lock:" \+ code does not check the owner, and every holder writes 1: it can delete another holder's lock \(LV204\) \(no fix: two acquireLock calls before releaseLock in run\)$`
}

type service struct{ cache *repo }

func (s *service) acquireLock(ctx context.Context, code string) bool {
	ok, err := s.cache.acquireLock(ctx, code)
	return err == nil && ok
}

func (s *service) releaseLock(ctx context.Context, code string) {
	_ = s.cache.releaseLock(ctx, code)
}

func (s *service) run(ctx context.Context, code string) {
	if !s.acquireLock(ctx, code) {
		return
	}
	if !s.acquireLock(ctx, code+"2") {
		return
	}
	defer s.releaseLock(ctx, code)
}
