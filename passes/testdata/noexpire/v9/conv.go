package v9

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// A key converted between string types where it is released is the same
// key: string(key), []byte(key) and a named string type send the same
// bytes.

type convStore struct{ rdb *redis.Client }

func (s *convStore) Lock(ctx context.Context, key string) bool {
	return s.rdb.SetNX(ctx, key, true, 0).Val() // want `lock key is acquired by SetNX with no TTL and nothing expires it`
}

func (s *convStore) Unlock(ctx context.Context, key string) {
	s.rdb.Del(ctx, string(key))
}

type jobKey string

func convInline(ctx context.Context, rdb *redis.Client, name jobKey) error {
	if !rdb.SetNX(ctx, string(name), "t", 0).Val() { // want `lock string\(name\) is acquired by SetNX with no TTL and nothing expires it`
		return nil
	}
	defer rdb.Del(ctx, string([]byte(name)))
	return nil
}

// --- silent ---

// Another conversion is another key: string(rune(n)) is one character,
// not the number.
type runeStore struct{ rdb *redis.Client }

func (s *runeStore) Lock(ctx context.Context, n int) bool {
	return s.rdb.SetNX(ctx, strconv.Itoa(n), true, 0).Val()
}

func (s *runeStore) Unlock(ctx context.Context, n int) {
	s.rdb.Del(ctx, string(rune(n)))
}
