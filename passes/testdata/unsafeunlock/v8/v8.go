package v8

import (
	"context"
	"errors"
	"time"

	goredis "github.com/go-redis/redis/v8"
)

var ErrLocked = errors.New("locked")

// A store embedding the client; the client package imported under another
// name; a local variable that shadows the script variable's name at one
// release (no fix there).
type Store struct {
	*goredis.Client
	prefix string
}

type Lease struct {
	store *Store
	key   string
	token string
}

func (s *Store) Acquire(ctx context.Context, name, token string) (*Lease, error) {
	l := &Lease{store: s, key: s.prefix + name, token: token}
	ok, err := s.SetNX(ctx, l.key, l.token, 10*time.Second).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrLocked
	}
	return l, nil
}

func (l *Lease) Release(ctx context.Context) error {
	return l.store.Del(ctx, l.key).Err() // want `Del of lock key l.key does not check the owner`
}

func (s *Store) Run(ctx context.Context, name, token string, fn func() error) error {
	key := s.prefix + name
	if !s.SetNX(ctx, key, token, time.Minute).Val() {
		return ErrLocked
	}
	unlockScript := "shadows the package-level name"
	_ = unlockScript
	defer s.Del(ctx, key) // want `Del of lock key key does not check the owner`
	return fn()
}

// Unlink through the Cmdable interface, from a goroutine.
func background(ctx context.Context, rdb goredis.Cmdable, key, token string) {
	if rdb.SetNX(ctx, key, token, time.Minute).Val() {
		go rdb.Unlink(ctx, key) // want `Unlink of lock key key does not check the owner`
	}
}

// --- silent ---

func scripted(ctx context.Context, rdb *goredis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, []string{key}, token)
}

func watched(ctx context.Context, rdb *goredis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return ErrLocked
	}
	return rdb.Watch(ctx, func(tx *goredis.Tx) error {
		v, err := tx.Get(ctx, key).Result()
		if err != nil || v != token {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
			pipe.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}
