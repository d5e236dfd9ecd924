package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

func incrWork(context.Context) error { return nil }

// INCR as a lock that nothing expires: the first caller enters, and a
// crash before the DEL leaves the counter at 1 for good.
func incrNoTTL(ctx context.Context, client rueidis.Client, job string) error {
	key := "lock:incr:" + job
	n, err := client.Do(ctx, client.B().Incr().Key(key).Build()).AsInt64() // want `lock key is acquired by INCR with no TTL and nothing expires it: a dead holder keeps it forever; use SET key value NX PX ttl; then its DEL must check the owner \(LV201\)`
	if err != nil {
		return err
	}
	if n != 1 {
		return errBusy
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	return incrWork(ctx)
}

// --- silent ---

// An INCR lock that is given a TTL (LV101's finding, not this one's).
func incrExpired(ctx context.Context, client rueidis.Client, key string) error {
	n, err := client.Do(ctx, client.B().Incr().Key(key).Build()).AsInt64()
	if err != nil {
		return err
	}
	if n > 1 {
		return errBusy
	}
	client.Do(ctx, client.B().Expire().Key(key).Seconds(60).Build())
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	return incrWork(ctx)
}

// A counter never expired and compared with a limit, then reset.
func attempts(ctx context.Context, client rueidis.Client, user string) bool {
	n, _ := client.Do(ctx, client.B().Incr().Key("attempts:"+user).Build()).AsInt64()
	if n > 5 {
		client.Do(ctx, client.B().Del().Key("attempts:"+user).Build())
		return false
	}
	return true
}
