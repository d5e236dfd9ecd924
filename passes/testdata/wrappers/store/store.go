// Package store is an in-house lock store wrapping go-redis. What its
// callers do with it is checked when the configuration declares its
// methods (see analyzer/wrappers_test.go). Its Unlock deletes with a bare
// DEL: as the counterpart of TryLock, it is reported here.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrBusy is returned by Acquire when another holder has the lock.
var ErrBusy = errors.New("store: lock busy")

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Store takes and releases locks.
type Store struct{ rdb *redis.Client }

// New returns a Store on rdb.
func New(rdb *redis.Client) *Store { return &Store{rdb: rdb} }

// TryLock takes key with token for ttl (0: no TTL); false when another
// holder has it.
func (s *Store) TryLock(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, key, token, ttl).Result()
}

// Acquire is TryLock reporting a held lock as ErrBusy.
func (s *Store) Acquire(ctx context.Context, key, token string, ttl time.Duration) error {
	ok, err := s.rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

// Touch sets key's TTL to seconds.
func (s *Store) Touch(ctx context.Context, key string, seconds int) error {
	return s.rdb.Expire(ctx, key, time.Duration(seconds)*time.Second).Err()
}

// Unlock deletes key.
func (s *Store) Unlock(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err()
}

// Release deletes key only while it holds token.
func (s *Store) Release(ctx context.Context, key, token string) error {
	return release.Run(ctx, s.rdb, []string{key}, token).Err()
}
