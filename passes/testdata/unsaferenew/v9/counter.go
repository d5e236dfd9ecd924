package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A per-user counter of the same shape as a lock of the package, kept
// alive while the user is active: a bare EXPIRE of the counter renews
// nobody's lock. Silent.
func countLogin(ctx context.Context, rdb *redis.Client, user string) error {
	return rdb.Incr(ctx, "login:"+user).Err()
}

func keepCount(ctx context.Context, rdb *redis.Client, user string, tick <-chan time.Time) {
	for range tick {
		rdb.Expire(ctx, "login:"+user, time.Hour)
	}
}

func lockLogin(ctx context.Context, rdb *redis.Client, user, token string) bool {
	return rdb.SetNX(ctx, "login:"+user, token, time.Minute).Val()
}

// The lock's own renewal in the function that took it: reported.
func holdLogin(ctx context.Context, rdb *redis.Client, user, token string, tick <-chan time.Time) {
	if !rdb.SetNX(ctx, "login:"+user, token, time.Minute).Val() {
		return
	}
	for range tick {
		rdb.Expire(ctx, "login:"+user, time.Minute) // want `Expire renews lock "login:" \+ user in a loop without checking`
	}
}
