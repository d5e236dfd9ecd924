package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A rate-limit store (throttled's shape): SETNX, then EXPIRE in a second
// round trip. Nothing says the key is a lock, so the finding speaks of the
// key. The Expire's error is returned, so there is no fix.
type store struct {
	client redis.UniversalClient
	prefix string
}

func (s *store) SetIfNotExistsWithTTL(ctx context.Context, key string, value int64, ttl time.Duration) (bool, error) {
	key = s.prefix + key
	updated, err := s.client.SetNX(ctx, key, value, 0).Result()
	if err != nil {
		return false, err
	}
	if ttl < time.Second {
		ttl = time.Second
	}
	err = s.client.Expire(ctx, key, ttl).Err() // want `Expire after SetNX wrote key without a TTL: a crash in between leaves the key with no TTL; pass the TTL to SetNX`
	return updated, err
}

// The TTL is clamped between the two calls: moving it into SetNX would
// skip the clamp (and a TTL of 0 there means none), so there is no fix.
func (s *store) clamped(ctx context.Context, key string, ttl time.Duration) bool {
	updated := s.client.SetNX(ctx, key, 1, 0).Val()
	if ttl < time.Second {
		ttl = time.Second
	}
	s.client.Expire(ctx, key, ttl) // want `^Expire after SetNX wrote key without a TTL`
	return updated
}

// Without the clamp: the fix moves the TTL.
func (s *store) setOnce(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	updated, err := s.client.SetNX(ctx, key, 1, 0).Result()
	if err != nil {
		return false, err
	}
	if err := s.client.Expire(ctx, key, ttl).Err(); err != nil { // want `Expire after SetNX wrote key without a TTL: a crash in between leaves the key with no TTL; pass the TTL to SetNX`
		return false, err
	}
	return updated, nil
}

// No lock word anywhere, but the key is deleted after the work: that
// release makes it a lock, and the finding speaks of one.
func (s *store) runOnce(ctx context.Context, key string, work func()) {
	if !s.client.SetNX(ctx, key, 1, 0).Val() {
		return
	}
	s.client.Expire(ctx, key, time.Minute) // want `Expire after SetNX acquired key without a TTL: a crash in between leaves the lock held forever; pass the TTL to SetNX`
	work()
	s.client.Del(ctx, key)
}
