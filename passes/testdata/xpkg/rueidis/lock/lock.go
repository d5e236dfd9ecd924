// Package lock holds lock helpers on rueidis.
package lock

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

var client rueidis.Client

// Lock takes key for ttl.
func Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) { // want Lock:"acquire-funcs:key=1,ttl=2"
	err := client.Do(ctx, client.B().Set().Key(key).Value("1").Nx().Px(ttl).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

// Unlock deletes key, whoever holds it.
func Unlock(ctx context.Context, key string) error { // want Unlock:"release-funcs:key=1"
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// Forget deletes key, whoever holds it. Its name does not pair it with
// Lock here: the callers' packages pair the two, and the finding is at
// their call.
func Forget(ctx context.Context, key string) error { // want Forget:"release-funcs:key=1"
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// Cached reads a cache entry: no fact.
func Cached(ctx context.Context, key string) (string, error) {
	return client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
}
