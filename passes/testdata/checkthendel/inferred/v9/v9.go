// GET, compare, DEL inside a release helper: reported inside it, once;
// a one-time code checked the same way is no lock.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func Lock(ctx context.Context, key, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, token, time.Minute).Result()
}

func Unlock(ctx context.Context, key, token string) {
	if rdb.Get(ctx, "lock:"+key).Val() == token {
		rdb.Del(ctx, "lock:"+key) // want `Del of "lock:" \+ key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}

func job(ctx context.Context, id, token string) error {
	ok, err := Lock(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	Unlock(ctx, id, token) // the finding is in Unlock
	return nil
}

// --- silent: a one-time code ---

func Verify(ctx context.Context, user, code string) bool {
	if rdb.Get(ctx, "otp:"+user).Val() == code {
		rdb.Del(ctx, "otp:"+user)
		return true
	}
	return false
}

func login(ctx context.Context, user, code string) bool {
	return Verify(ctx, user, code)
}
