package lock

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// TryLockToken takes key with a fresh token and returns it, and whether
// key was taken: (token, ok, err).
func TryLockToken(ctx context.Context, key string, ttl time.Duration) (string, bool, error) { // want TryLockToken:"acquire-funcs:key=1,ttl=2"
	tok := newToken()
	err := client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Px(ttl).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return tok, true, nil
}

func newToken() string { return time.Now().Format(time.RFC3339Nano) }
