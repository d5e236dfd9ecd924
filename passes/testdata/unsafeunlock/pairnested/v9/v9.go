// A helper pair one level up (go-redis v9): the repository's
// acquireLock/releaseLock (SETNX, bare DEL) wrapped by the service's own
// unexported pair, whose acquire degrades when there is no cache or the
// cache fails. The token is threaded through both pairs: the outer
// acquire returns "" where it took no lock, and the release's
// compare-and-delete with "" deletes nothing.
package v9

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type repo struct{ rdb *redis.Client }

func (c *repo) acquireLock(ctx context.Context, code string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, "redeem:lock:"+code, 1, ttl).Result()
}

func (c *repo) releaseLock(ctx context.Context, code string) error {
	return c.rdb.Del(ctx, "redeem:lock:"+code).Err() // want `Del of lock key "redeem:lock:" \+ code does not check the owner, and every holder writes 1: it can delete another holder's lock \(LV204\)$`
}

type service struct{ cache *repo }

var errBusy = errors.New("busy")

func (s *service) acquireLock(ctx context.Context, code string) bool {
	if s.cache == nil {
		return true
	}
	ok, err := s.cache.acquireLock(ctx, code, 10*time.Second)
	if err != nil {
		return true
	}
	return ok
}

func (s *service) releaseLock(ctx context.Context, code string) {
	if s.cache == nil {
		return
	}
	_ = s.cache.releaseLock(ctx, code)
}

func (s *service) redeem(ctx context.Context, code string) error {
	if !s.acquireLock(ctx, code) {
		return errBusy
	}
	defer s.releaseLock(ctx, code)
	return nil
}
