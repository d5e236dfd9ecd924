package v9

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// A test sleeps past the TTL on purpose, to see the lock expire.
func TestExpires(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{})
	if !rdb.SetNX(ctx, "lock:t", "tok", time.Second).Val() {
		t.Fatal("busy")
	}
	time.Sleep(2 * time.Second)
	rdb.Del(ctx, "lock:t")
}
