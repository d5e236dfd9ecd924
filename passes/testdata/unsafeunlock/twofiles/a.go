package twofiles

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = time.Minute

// Releases in two files: every fix declares the script in this file (the
// first by name that imports the client), so that applied together they
// declare it once.
func a(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}
