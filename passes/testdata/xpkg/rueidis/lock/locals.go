package lock

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// LockJob builds its key in a local variable.
func LockJob(ctx context.Context, id string) (bool, error) { // want LockJob:"acquire-funcs:key=1"
	key := "job:" + id
	err := client.Do(ctx, client.B().Set().Key(key).Value("1").Nx().Ex(time.Minute).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

// ForgetJob deletes the job's key, whoever holds it; not paired here.
func ForgetJob(ctx context.Context, id string) error { // want ForgetJob:"release-funcs:key=1"
	key := "job:" + id
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}
