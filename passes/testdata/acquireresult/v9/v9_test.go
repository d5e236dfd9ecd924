package v9

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// A test holds the lock as another process would, then cleans up.
func TestBusy(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{})
	rdb.SetNX(ctx, "lock:report", "other", ttl)
	defer rdb.Del(ctx, "lock:report")
	if err := lockReport(ctx, rdb); err != nil {
		t.Fatal(err)
	}
}
