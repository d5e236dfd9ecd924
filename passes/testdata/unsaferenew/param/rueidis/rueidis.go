package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func lock(ctx context.Context, client rueidis.Client, name, owner string, ttl time.Duration) error {
	return client.Do(ctx, client.B().Set().Key("lock:"+name).Value(owner).Nx().PxMilliseconds(ttl.Milliseconds()).Build()).Error()
}

func unlock(ctx context.Context, client rueidis.Client, name string) error {
	return client.Do(ctx, client.B().Del().Key("lock:"+name).Build()).Error()
}

func keepAlive(ctx context.Context, client rueidis.Client, name, owner string, ttl time.Duration) {
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			client.Do(ctx, client.B().Pexpire().Key("lock:"+name).Milliseconds(ttl.Milliseconds()).Build()) // want `PEXPIRE renews lock "lock:" \+ name in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script$`
		}
	}
}
