package v9

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Fixtures: a test seeds a lock key with no TTL and deletes it.
func TestBusy(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{})
	rdb.SetNX(ctx, "lock:report", "other", 0)
	defer rdb.Del(ctx, "lock:report")
	rdb.Del(ctx, "lock:boot:"+t.Name())
}
