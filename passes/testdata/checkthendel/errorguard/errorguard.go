// Package errorguard: an owner check whose delete sits behind the GET's error.
package errorguard

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The delete runs only with the GET's error set (a mistaken test that
// meant err == nil): an error of Redis, not of the work, so the key is
// still a lock released after the work, not a retry marker.
func cronOnce(ctx context.Context, rdb *redis.Client, key, id string, work func()) {
	if ok, _ := rdb.SetNX(ctx, key, id, time.Minute).Result(); !ok {
		return
	}
	work()
	value, err := rdb.Get(ctx, key).Result()
	if err != nil && err != redis.Nil && value == id {
		rdb.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}
