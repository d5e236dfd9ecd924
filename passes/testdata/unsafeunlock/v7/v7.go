package v7

import (
	"errors"
	"time"

	"github.com/go-redis/redis/v7"
)

var ErrLocked = errors.New("locked")

type Lock struct {
	rdb   *redis.Client
	key   string
	value string
}

func (l *Lock) TryLock() error {
	ok, err := l.rdb.SetNX(l.key, l.value, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrLocked
	}
	return nil
}

// No context in v7: the script runs as Run(client, keys, args...).
func (l *Lock) Unlock() error {
	_, err := l.rdb.Del(l.key).Result() // want `Del of lock key l.key does not check the owner`
	return err
}

func withLock(rdb *redis.Client, key, token string, fn func()) {
	if !rdb.SetNX(key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(key) // want `Del of lock key key does not check the owner`
	fn()
}

// --- silent ---

func cache(rdb *redis.Client, key string) {
	rdb.Set(key, "v", time.Minute)
	rdb.Del(key)
}
