// Package mirror does work that outlives the lock's TTL, the lock taken
// through the project's own Redis layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

const unlock = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

func typed(ctx context.Context, s store.Store, key, tok string) error {
	if ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result(); err != nil || !ok {
		return err
	}
	defer s.Eval(ctx, unlock, []string{key}, tok)
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) while holding lock key, whose TTL is 30s`
	return nil
}

func plain(b store.Backend, key, tok string) error {
	if ok, err := b.SetNx(key, tok, 30); err != nil || !ok {
		return err
	}
	defer b.Del(key)
	time.Sleep(2 * time.Minute) // want `time.Sleep\(2m0s\) while holding lock key, whose TTL is 30s`
	return nil
}

// --- silent ---

func short(ctx context.Context, s store.Store, key, tok string) error {
	if ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result(); err != nil || !ok {
		return err
	}
	defer s.Eval(ctx, unlock, []string{key}, tok)
	time.Sleep(time.Second)
	return nil
}
