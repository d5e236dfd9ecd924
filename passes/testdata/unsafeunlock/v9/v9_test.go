package v9

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Test cleanup deletes the lock it took: fixture cleanup, not a release.
func TestDeferred(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{})
	if !rdb.SetNX(ctx, "lock:test", "t", ttl).Val() {
		t.Skip("busy")
	}
	defer rdb.Del(ctx, "lock:test")
	deferred(ctx, rdb, "lock:test", func() {})
}
