package v8

import (
	"context"
	"time"

	goredis "github.com/go-redis/redis/v8"
)

// Released by a plain SET of the lock key.
func (s *Store) RunMark(ctx context.Context, name, token string, fn func() error) error {
	key := s.prefix + name
	if !s.SetNX(ctx, key, token, time.Minute).Val() {
		return ErrLocked
	}
	err := fn()
	s.Set(ctx, key, "done", 5*time.Second) // want `Set overwrites lock key key with "done" without checking the owner`
	return err
}

// --- silent ---

// SET XX: only while the key exists, as a state change of a held key.
func markXX(ctx context.Context, rdb *goredis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	rdb.SetXX(ctx, key, "done", time.Minute)
}
