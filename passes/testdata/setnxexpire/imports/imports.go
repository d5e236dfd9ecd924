package imports

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The Expire holds the file's only use of fmt: the fix must drop the import
// too, or hosts that apply edits as they are (golangci-lint --fix) leave
// code that does not compile.
func acquire(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, "t", 0).Result()
	if err != nil || !ok {
		return false, err
	}
	if err := rdb.Expire(ctx, key, time.Minute).Err(); err != nil { // want `Expire after SetNX`
		return false, fmt.Errorf("expire %s: %w", key, err)
	}
	return true, nil
}
