package rueidis

import (
	"context"
	"errors"

	"github.com/redis/rueidis"
)

var errBusy = errors.New("busy")

func work(context.Context) error { return nil }

// INCR as a lock: the caller whose INCR returns 1 enters; the TTL comes in
// a second round trip.
func incrLock(ctx context.Context, client rueidis.Client, key string) error {
	n, err := client.Do(ctx, client.B().Incr().Key(key).Build()).AsInt64()
	if err != nil {
		return err
	}
	if n != 1 {
		return errBusy
	}
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after INCR acquired key without a TTL: a crash in between leaves the lock held forever; use SET key value NX PX ttl`
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	return work(ctx)
}

// ToInt64, the work in the branch, released by UNLINK.
func incrEqual(ctx context.Context, client rueidis.Client, job string) error {
	key := "lock:" + job
	n, err := client.Do(ctx, client.B().Incr().Key(key).Build()).ToInt64()
	if err != nil {
		return err
	}
	if n == 1 {
		client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(30000).Build()) // want `PEXPIRE after INCR acquired key without a TTL`
		defer client.Do(ctx, client.B().Unlink().Key(key).Build())
		return work(ctx)
	}
	return errBusy
}

// --- silent ---

// A rate limiter: the first INCR of a window gives it its TTL, and nothing
// deletes the counter.
func incrWindow(ctx context.Context, client rueidis.Client, key string) (bool, error) {
	n, err := client.Do(ctx, client.B().Incr().Key(key).Build()).AsInt64()
	if err != nil {
		return false, err
	}
	if n == 1 {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(60).Build())
	}
	return n <= 100, nil
}

// The count compared with a limit, then reset: a counter.
func attempts(ctx context.Context, client rueidis.Client, user string) bool {
	n, _ := client.Do(ctx, client.B().Incr().Key("attempts:"+user).Build()).AsInt64()
	if n > 5 {
		client.Do(ctx, client.B().Del().Key("attempts:"+user).Build())
		client.Do(ctx, client.B().Expire().Key("attempts:"+user).Seconds(60).Build())
		return false
	}
	return true
}

// The reply returned: a sequence number.
func nextID(ctx context.Context, client rueidis.Client) (int64, error) {
	return client.Do(ctx, client.B().Incr().Key("ids").Build()).AsInt64()
}
