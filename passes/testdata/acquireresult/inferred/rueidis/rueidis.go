// Calls of inferred acquire helpers (rueidis).
package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func TryLock(ctx context.Context, c rueidis.Client, key string) (bool, error) {
	err := c.Do(ctx, c.B().Set().Key("lock:"+key).Value("1").Nx().Ex(time.Minute).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

func Unlock(ctx context.Context, c rueidis.Client, key string) {
	c.Do(ctx, c.B().Del().Key("lock:"+key).Build())
}

// --- reported ---

func work(ctx context.Context, c rueidis.Client, id string) error {
	_, err := TryLock(ctx, c, id) // want `only the error of TryLock is checked`
	if err != nil {
		return err
	}
	defer Unlock(ctx, c, id)
	return nil
}

// --- silent ---

func workOK(ctx context.Context, c rueidis.Client, id string) error {
	ok, err := TryLock(ctx, c, id)
	if err != nil || !ok {
		return err
	}
	defer Unlock(ctx, c, id)
	return nil
}
